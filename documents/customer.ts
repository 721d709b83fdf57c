/**
 * The customer's document number in a UBL document (invoice, receipt, note: AccountingCustomerParty; despatch:
 * DeliveryCustomerParty), or null. Read from the XML so built and externally signed documents are treated alike.
 */
export function customerDocOf(xml: string): string | null {
  // A summary or void lists many customers, none of them "the" customer.
  if (/<(?:\w+:)?(?:SummaryDocuments|VoidedDocuments)\b/.test(xml.slice(0, 2000))) return null;
  const party =
    /<cac:(?:AccountingCustomerParty|DeliveryCustomerParty)>([\s\S]*?)<\/cac:(?:AccountingCustomerParty|DeliveryCustomerParty)>/.exec(
      xml,
    );
  if (!party) return null;
  const id = /<cbc:(?:ID|CustomerAssignedAccountID)\b[^>]*>([^<]+)<\/cbc:(?:ID|CustomerAssignedAccountID)>/.exec(
    party[1],
  );
  return id ? id[1].trim() : null;
}
