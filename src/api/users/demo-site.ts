/**
 * A demo site (`DemoSiteEnabled`): a Ferry shown to others, whose super admin's sign-in is published
 * so visitors can look around. While it is on, nobody can change the super admin's username or
 * password — not from their settings, the user editor, or a password-reset mail — so one visitor
 * cannot lock the others out. What else it does: docs/guide/demo-site.md.
 */
import { ROLE, USER_MESSAGES } from '@shared/user'
import type { OptionStore } from '@/db/stores/options'
import type { UserRecord } from '@/db/stores/users'
import { refused } from '../errors'

/** Throws when the change would alter the super admin's sign-in on a demo site. */
export function assertSignInChangeable(options: Pick<OptionStore, 'get'>, target: Pick<UserRecord, 'role'>, change: { username: boolean; password: boolean }) {
	if ((change.username || change.password) && target.role >= ROLE.root && options.get('DemoSiteEnabled')) throw refused(USER_MESSAGES.demoSiteRootLocked)
}
