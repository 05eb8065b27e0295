import { CONSOLE_ANTD_CONFIG } from '../ui/antd-config.ts';

/**
 * The canvas knows nothing of the page's fonts: without the console's own stack (the bundled Noto
 * faces first) Chinese, Japanese and Korean labels are drawn as empty boxes where no system font
 * has them, as in headless browsers. Every chart draws its text with `chartTextStyle()`.
 */
const FONT_FAMILY = CONSOLE_ANTD_CONFIG.theme.token.fontFamily;

/**
 * A web font often arrives after a chart's first drawing (the Noto faces load in pieces, as text
 * needs them). ECharts keeps the widths it measured per font name, so a chart drawn again under
 * the same name would lay out legends with the fallback's widths; each arrival of fonts gives the
 * charts a new name for the same stack (an unknown last family changes nothing else).
 */
let fontArrivals = 0;
const fonts = typeof document === 'undefined' ? undefined : document.fonts;
fonts?.addEventListener('loadingdone', () => {
  fontArrivals += 1;
});

export const chartTextStyle = () => ({
  fontFamily: fontArrivals === 0 ? FONT_FAMILY : `${FONT_FAMILY}, vigil-fonts-${fontArrivals}`,
});

/** Calls `draw` whenever web fonts arrive (the canvas uses them only when it draws again); returns the stop. */
export const redrawOnFonts = (draw: () => void): (() => void) => {
  fonts?.addEventListener('loadingdone', draw);
  return () => fonts?.removeEventListener('loadingdone', draw);
};
