import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { PLACE_NAME_MAX } from '../facility-model.ts';
import type { NameProblem } from '@vigil/contract/browser';

/** Why the server refused one name of a batch, by its message key. */
const REASONS: Record<string, string> = {
  'facility.nameTooLong': 'problem.tooLong',
  'facility.duplicateInList': 'problem.repeated',
  'facility.nameChars': 'problem.chars',
  'room.exists': 'problem.roomExists',
  'bed.exists': 'problem.bedExists',
};

/** A refused batch add: the server's message and every bad name with its position and reason. */
export const NameProblems = ({ message, problems }: { message: string; problems: readonly NameProblem[] }) => {
  const { t } = useTranslation('facility');
  return (
    <Alert
      type="error"
      showIcon
      data-testid="name-problems"
      title={message}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {problems.map((p) => (
            <li key={`${p.index}:${p.msgKey}`}>
              {t('problem.item', {
                position: p.index + 1,
                name: p.name,
                reason: t(REASONS[p.msgKey] ?? 'problem.other', { max: PLACE_NAME_MAX }),
              })}
            </li>
          ))}
        </ul>
      }
    />
  );
};
