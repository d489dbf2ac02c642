/** Account roles, states and limits: zod-free, so the console's shell can use them without loading schemas (`user.ts` re-exports them). */

export const ROLE = { user: 1, admin: 10, root: 100 } as const
export type Role = (typeof ROLE)[keyof typeof ROLE]
export const USER_STATUS = { enabled: 1, disabled: 2, blocked: 3 } as const

/** A token in this group is routed to the first of `AutoGroups` that serves the requested model. */
export const AUTO_GROUP = 'auto'

export const USERNAME_MAX_LENGTH = 12
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 20
