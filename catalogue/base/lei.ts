/**
 * Legal Entity Identifiers (ISO 17442): 20 characters, 18 letters or digits then two check digits,
 * computed as in ISO/IEC 7064 MOD 97-10 (letters as 10…35, the whole number mod 97 is 1). The
 * register stores and accepts only LEIs that pass (catalogue/register/, DORA ITS 2024/2956 Annex I
 * asks for the LEI "in ISO 17442 format").
 */
export const LEI_PATTERN = /^[A-Z0-9]{18}[0-9]{2}$/;

/** The remainder mod 97 of the digits an LEI stands for (letters A…Z as 10…35), read piecewise. */
function mod97(code: string): number {
  let remainder = 0;
  for (const character of code) {
    const value = Number.parseInt(character, 36);
    remainder = (remainder * (value > 9 ? 100 : 10) + value) % 97;
  }
  return remainder;
}

/** Whether a string is an LEI with correct check digits. */
export const isValidLei = (code: string): boolean => LEI_PATTERN.test(code) && mod97(code) === 1;

/** The two check digits for an 18-character LEI prefix (what a registration authority appends). */
export function leiCheckDigits(prefix: string): string {
  const check = 98 - mod97(`${prefix}00`);
  return String(check).padStart(2, "0");
}
