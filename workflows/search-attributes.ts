import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * What operators filter on in the Temporal UI (`Ruc="20123456789" AND DocStatus="rejected"`).
 * Registered by the dev server launcher and by docker-compose's namespace job.
 */
export const RucKey = defineSearchAttributeKey('Ruc', SearchAttributeType.KEYWORD);
export const DocTypeKey = defineSearchAttributeKey('DocType', SearchAttributeType.KEYWORD);
export const DocStatusKey = defineSearchAttributeKey('DocStatus', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [RucKey, DocTypeKey, DocStatusKey];
