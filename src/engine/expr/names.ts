/**
 * SPEC §5: variable and formula names start with a letter or digit, then contain only letters, digits, `_` or `?`.
 * "Letter" includes non-English letters; "digit" means decimal digits.
 */
export const NAME_PATTERN = /^[\p{L}\p{Nd}][\p{L}\p{Nd}_?]*$/u
