import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { checkNameList, checkPlaceName, type NameRuleProblem } from './places/place-names.ts';

/** An antd rule from a pure check answering a facility-namespace problem (the Form.Item shows the mark). */
const ruleOf = (t: TFunction, check: (value: string | undefined) => NameRuleProblem | null): Rule => ({
  validator: (_: unknown, value: string | undefined) => {
    const problem = check(value);
    return problem ? Promise.reject(new Error(t(problem.key, problem.params))) : Promise.resolve();
  },
});

/** One area, floor, room or bed name. */
export const placeNameRules = (t: TFunction): Rule[] => [ruleOf(t, checkPlaceName)];

/** Comma-separated room or bed names. */
export const nameListRules = (t: TFunction): Rule[] => [ruleOf(t, checkNameList)];
