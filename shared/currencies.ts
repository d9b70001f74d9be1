/**
 * The currencies a business can keep its books in: ISO 4217 codes the platform's Intl can format
 * (a free-text "XYZ" once relabelled past revenue).
 */
export const currencyCodes: readonly string[] = Intl.supportedValuesOf('currency');

export function isKnownCurrency(code: string): boolean {
  return currencyCodes.includes(code);
}
