/** The question input types of SPEC §3; a variable's data type decides how answers are coerced and shown. */
export type DataType = 'array' | 'date' | 'freetext' | 'number' | 'percent' | 'boolean' | 'select' | 'radio'

export const DATA_TYPES: readonly DataType[] = ['array', 'date', 'freetext', 'number', 'percent', 'boolean', 'select', 'radio']

export function isDataType(name: unknown): name is DataType {
  return typeof name === 'string' && (DATA_TYPES as readonly string[]).includes(name)
}

export interface InputTypeInfo {
  /** The name authors pick in the editor (SPEC §3 spelling). */
  label: string
  /** Shown inside an empty input. */
  placeholder: string
  /** One sentence under the input explaining what to type. */
  description: string
}

export const INPUT_TYPES: Readonly<Record<DataType, InputTypeInfo>> = {
  array: {
    label: 'Array',
    placeholder: 'e.g. apples, pears, plums',
    description: 'A list of values. Separate them with commas.',
  },
  date: {
    label: 'Date',
    placeholder: 'YYYY-MM-DD',
    description: 'A calendar date written year-month-day, like 2024-03-31.',
  },
  freetext: {
    label: 'Freetext',
    placeholder: 'Type your answer',
    description: 'Any text.',
  },
  number: {
    label: 'Number',
    placeholder: 'e.g. 42 or 3.5',
    description: 'A number. Commas between thousands (1,234) and a currency sign ($1,234) are fine.',
  },
  percent: {
    label: 'Percent',
    placeholder: 'e.g. 4.2',
    description: 'A percentage: type 4.2 for 4.2%.',
  },
  boolean: {
    label: 'True/False',
    placeholder: 'Yes or No',
    description: 'A yes-or-no answer.',
  },
  select: {
    label: 'Select',
    placeholder: 'Choose one',
    description: 'One of a fixed list of options, picked from a dropdown.',
  },
  radio: {
    label: 'Radio',
    placeholder: 'Choose one',
    description: 'One of the options a question rule offers, picked with buttons.',
  },
}
