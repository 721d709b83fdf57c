/**
 * Catalog 54: goods and services subject to detracción (SPOT) with their rate in percent, as listed in
 * shared/sunat/codes/catalogos/cat_54.csv; and catalog 59, the means of payment.
 */
export const DETRACTION_RATES: Readonly<Record<string, string>> = {
  '001': '10', '002': '10', '003': '10', '004': '4', '005': '4', '007': '10', '008': '4', '009': '10', '010': '15',
  '011': '15', '012': '10', '013': '10', '014': '4', '015': '10', '016': '4', '017': '4', '019': '10', '020': '10',
  '021': '10', '022': '10', '023': '10', '024': '10', '025': '10', '026': '10', '027': '4', '028': '4', '030': '4',
  '031': '10', '032': '10', '034': '10', '035': '1.5', '036': '1.5', '037': '10', '039': '10', '040': '4',
  '041': '15', '099': '8',
};

/** Codes that have an operation type of their own (1002 hidrobiológicos, 1003 pasajeros, 1004 carga). */
export const DETRACTION_CODES_WITH_OWN_OPERATION: Readonly<Record<string, string>> = { '004': '1002', '028': '1003', '027': '1004' };

export const PAYMENT_MEANS = [
  '001', '002', '003', '004', '005', '006', '007', '008', '009', '010', '011', '012', '013',
  '101', '102', '103', '104', '105', '106', '107', '108', '999',
] as const;
