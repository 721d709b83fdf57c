/** Where a session that still owes its second factor is sent: the code, or the enrolment the account requires. */
export const SECOND_FACTOR_PATHS = { totp: '/console/2fa', enrol: '/console/2fa/alta' } as const;
