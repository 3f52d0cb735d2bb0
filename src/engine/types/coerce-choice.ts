import { accepted, quote, rejected, type CoerceResult } from './result.ts'

const LISTED_CHOICES = 10

/**
 * Select and radio answers must be one of the options. Matching ignores case and surrounding spaces and answers
 * with the option as the author wrote it, so "yes " and "YES" both store "Yes".
 */
export function coerceChoice(raw: unknown, options: readonly string[] | undefined): CoerceResult {
  if (options === undefined || options.length === 0) {
    return rejected('INPUT_NO_OPTIONS', 'This question has no options to choose from yet.')
  }
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    return rejected('INPUT_NOT_AN_OPTION', `Choose one of: ${listChoices(options)}.`)
  }
  const option = findOption(String(raw), options)
  if (option !== undefined) return accepted(option)
  return rejected('INPUT_NOT_AN_OPTION', `${quote(String(raw).trim())} is not one of the choices: ${listChoices(options)}.`)
}

export function findOption(answer: string, options: readonly string[]): string | undefined {
  const wanted = comparable(answer)
  return options.find((option) => comparable(option) === wanted)
}

function comparable(text: string): string {
  return text.normalize('NFC').trim().toLowerCase()
}

export function listChoices(options: readonly string[]): string {
  const shown = options.slice(0, LISTED_CHOICES).join(', ')
  return options.length > LISTED_CHOICES ? `${shown}, …` : shown
}
