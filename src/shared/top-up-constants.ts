/** Top-up order states: zod-free, for the wallet page (`top-up.ts` re-exports them). */

export const TOP_UP_STATUS = { pending: 'pending', success: 'success', failed: 'failed' } as const
export type TopUpStatus = (typeof TOP_UP_STATUS)[keyof typeof TOP_UP_STATUS]
