import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * What operators filter on in the Temporal UI (`Ruc="20123456789" AND DocStatus="rejected"`).
 * Registered by the dev server launcher and by docker-compose's namespace job.
 */
export const RucKey = defineSearchAttributeKey('Ruc', SearchAttributeType.KEYWORD);
export const DocTypeKey = defineSearchAttributeKey('DocType', SearchAttributeType.KEYWORD);
export const DocStatusKey = defineSearchAttributeKey('DocStatus', SearchAttributeType.KEYWORD);
/** `F001-10`: what a customer quotes (`DocNumber="F001-10"`, with `Ruc` when several companies use the series). */
export const DocNumberKey = defineSearchAttributeKey('DocNumber', SearchAttributeType.KEYWORD);
/** The document's issue date (midnight in Lima): `IssueDate >= "2026-11-01T00:00:00-05:00"`. */
export const IssueDateKey = defineSearchAttributeKey('IssueDate', SearchAttributeType.DATETIME);

/** The one list of chasqui's search attributes: the dev server, the tests and compose's namespace job register these. */
export const SEARCH_ATTRIBUTES = [RucKey, DocTypeKey, DocStatusKey, DocNumberKey, IssueDateKey];

/** The name the `temporal` CLI and the server's operator API give each type. */
export const SEARCH_ATTRIBUTE_TYPE_NAMES: Record<string, string> = {
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.DATETIME]: 'Datetime',
};
