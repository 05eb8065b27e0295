/**
 * `npm run simulate -- --help`: the command line over the library (fleet.ts). Parsing and the
 * usage text are in args.ts; this file only wires them together.
 */
import { parseCli, usage } from './args.ts';
import { planFleet } from './catalogue.ts';
import { prepareFleet } from './fleet.ts';
import { provisionFleet } from './provision.ts';
import { connectingDevices, newRunSalt, readSecrets, secretsFor, writeSecrets } from './secrets.ts';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

const main = async (): Promise<number> => {
  let o;
  try {
    o = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    err(`${(error as Error).message}\nSee npm run simulate -- --help`);
    return 2;
  }
  if (o.help) {
    out(usage());
    return 0;
  }
  const log = o.quiet ? () => {} : (line: string) => err(`[simulate] ${line}`);

  const plan = planFleet(o.devices, o.prefix);
  for (const note of plan.notes) log(note);
  if (o.list) {
    for (const d of plan.devices) {
      out(
        JSON.stringify({
          id: d.id,
          type: d.type.code,
          model: d.type.model,
          kind: d.kind,
          room: d.room,
          host: d.hostId,
        }),
      );
    }
    return 0;
  }

  const given = o.secrets ? readSecrets(o.secrets) : {};
  const secrets = secretsFor(plan, o.seed, o.salt ?? newRunSalt(), given);
  const unknown = connectingDevices(plan).filter((id) => !given[id]);
  if (!o.provision && unknown.length) {
    log(
      `warning: ${unknown.length} device(s) use generated secrets the server does not know ` +
        `(${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''}): use --provision, or --secrets ` +
        'with the file an earlier --secrets-out wrote for the same --devices and --prefix',
    );
  }
  if (o.secretsOut) {
    writeSecrets(o.secretsOut, secrets);
    log(`secrets written to ${o.secretsOut}`);
  }
  if (o.provision) {
    const result = await provisionFleet(plan, secrets, {
      api: o.api,
      adminUser: o.adminUser ?? 'admin',
      adminPassword: o.adminPassword ?? '',
      ...(o.providerId !== undefined ? { providerId: o.providerId } : {}),
      log,
    });
    log(`provisioned: ${result.imported} registered, ${result.alreadyRegistered.length} already registered`);
    if (o.provisionOnly) return 0;
  }

  const fleet = prepareFleet({
    url: o.url,
    plan,
    seed: o.seed,
    secrets,
    speed: o.speed,
    start: o.start,
    tsMode: o.tsMode,
    eventRate: o.eventRate,
    intervals: o.intervals,
    rri: o.rri,
    httpUrl: o.api,
    otaFailureRate: o.otaFailureRate,
    ...(o.truth ? { truthLog: o.truth } : {}),
  });
  fleet.on('warning', (w) => log(`warning: ${w}`));
  fleet.on('scenario', (s) => log(`scenario ${s.name} @ ${s.sim}: ${s.label}`));
  fleet.on('ota', (r) => {
    const step = r.report.state === 'downloading' ? `downloading ${r.report.progress}%` : r.report.state;
    if (r.report.state !== 'downloading' || r.report.progress >= 100) {
      log(`${r.deviceId}: firmware ${r.version} ${step}${'error' in r.report ? `: ${r.report.error}` : ''}`);
    }
  });
  fleet.on('command', (c) =>
    log(
      `${c.deviceId}: command ${c.id} ${c.command} ${JSON.stringify(c.params)} → ${c.outcome.ok ? 'ok' : c.outcome.error}`,
    ),
  );
  log(
    `seed ${o.seed}; ${plan.devices.length} devices (${fleet.devices.size} connecting) → ${o.url}; ` +
      `speed ${o.speed}, simulated start ${new Date(o.start).toISOString()}, ts ${o.tsMode}`,
  );

  let stopping: Promise<void> | null = null;
  let finished = () => {};
  const done = new Promise<void>((resolve) => (finished = resolve));
  const stop = (why: string) => {
    stopping ??= (async () => {
      log(`stopping (${why})`);
      await fleet.stop('graceful');
      const s = fleet.stats();
      log(`published ${s.published}, acked ${s.acked}, failed ${s.failed}`);
      finished();
    })();
    return stopping;
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  fleet.schedule(o.scenarios);
  for (const s of fleet.scenarios) {
    const late = o.durationMs !== undefined && s.at > o.start + o.durationMs ? ' — after the end of --duration' : '';
    log(`scenario ${s.name} at ${new Date(s.at).toString()} (simulated)${late}`);
  }
  const up = await fleet.start();
  log(`${up}/${fleet.devices.size} connected`);

  const progress = o.quiet
    ? null
    : setInterval(() => {
        const s = fleet.stats();
        log(
          `sim ${new Date(fleet.clock.simNow()).toString().slice(0, 24)}: ${s.connected}/${fleet.devices.size} ` +
            `connected, published ${s.published}, acked ${s.acked}, failed ${s.failed}`,
        );
      }, 10_000);
  progress?.unref();

  if (o.durationMs !== undefined) setTimeout(() => void stop('duration reached'), fleet.clock.toReal(o.durationMs));
  await done;
  if (progress) clearInterval(progress);
  return 0;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    err(`simulate: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
