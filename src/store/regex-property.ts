import type { RegexReader } from './regex-reader.js';
import { refuse } from './regex-tree.js';

// Unicode property escapes (`\p{...}`, `\P{...}` with `u`): JavaScript's long names of the
// general categories mapped to RE2's short ones, scripts as they are; other properties refused.

const GENERAL_CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};
const SHORT_CATEGORIES = new Set(Object.values(GENERAL_CATEGORIES));

/** The property escape at the cursor, spelled for RE2. */
export function readProperty(r: RegexReader, negated: boolean): string {
  const end = r.source.indexOf('}', r.i);
  const body = r.source.slice(r.i + 3, end);
  r.i = end + 1;
  if (r.ignoreCase) refuse('\\p{...} and \\P{...} are not supported with the i option');
  const [name, value] = body.includes('=') ? (body.split('=') as [string, string]) : [undefined, body];
  let re2Name: string | undefined;
  if (name === undefined || name === 'General_Category' || name === 'gc') {
    re2Name = SHORT_CATEGORIES.has(value) ? value : GENERAL_CATEGORIES[value];
    if (re2Name === undefined && name === undefined) refuse(`the property \\p{${body}} is not supported (general categories and scripts are)`);
  }
  if (name === 'Script' || name === 'sc') re2Name = value;
  if (re2Name === undefined) refuse(`the property \\p{${body}} is not supported (general categories and scripts are)`);
  return `\\${negated ? 'P' : 'p'}{${re2Name}}`;
}
