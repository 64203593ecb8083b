/** The module's syntax is outside what the layout (`./index.ts`) lays out; the caller formats with prettier. */
export class NotLaidOut extends Error {}
