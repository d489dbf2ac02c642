/**
 * Who may do what to a user (docs/specification/accounts-and-settings.md#user-administration): the server's rule and the console's row actions are this one
 * function, so a row never offers what the server would refuse. Zod-free, for the console's first load.
 */
import { ROLE, USER_STATUS } from './user-constants'

/** `edit` reads and changes the user's fields; the others are the actions of /api/user/manage. */
export type UserAction = 'edit' | 'promote' | 'demote' | 'disable' | 'enable' | 'delete'

/** Names of the refusal messages (`USER_MESSAGES` in user.ts). */
export type UserActionRefusal = 'equalOrHigherRole' | 'adminCannotPromote' | 'alreadyAdmin' | 'rootProtected' | 'alreadyUser' | 'enableBlocked'

type Actor = { role: number }
type Target = { role: number; status: number }

/**
 * Why `actor` may not take `action` on `target`, or undefined when it may. Admins never act on an equal
 * or higher role and never promote; the super admin acts on anyone but cannot be disabled, deleted or
 * demoted. Checked in this order, which decides the message when several rules refuse.
 */
export function userActionRefusal(actor: Actor, target: Target, action: UserAction): UserActionRefusal | undefined {
	if (actor.role < ROLE.root && target.role >= actor.role) return 'equalOrHigherRole'
	switch (action) {
		case 'promote':
			if (actor.role < ROLE.root) return 'adminCannotPromote'
			if (target.role >= ROLE.admin) return 'alreadyAdmin'
			return undefined
		case 'demote':
			if (target.role >= ROLE.root) return 'rootProtected'
			if (target.role === ROLE.user) return 'alreadyUser'
			return undefined
		case 'disable':
		case 'delete':
			return target.role >= ROLE.root ? 'rootProtected' : undefined
		case 'enable':
			return target.status === USER_STATUS.blocked ? 'enableBlocked' : undefined
		case 'edit':
			return undefined
	}
}

export const mayTakeUserAction = (actor: Actor, target: Target, action: UserAction) => userActionRefusal(actor, target, action) === undefined
