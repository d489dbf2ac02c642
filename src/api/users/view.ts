import type { SessionUser, UserView } from '@shared/user'
import type { UserRecord } from '@/db/stores/users'

export function toUserView(user: UserRecord): UserView {
	return {
		id: user.id,
		username: user.username,
		display_name: user.displayName,
		role: user.role,
		status: user.status,
		email: user.email,
		github_id: user.githubId,
		wechat_id: user.wechatId,
		telegram_id: user.telegramId,
		linux_do_id: user.linuxDoId,
		oidc_id: user.oidcId,
		quota: user.quota,
		used_quota: user.usedQuota,
		request_count: user.requestCount,
		group: user.group,
		aff_code: user.affCode,
		aff_count: user.affCount,
		aff_quota: user.affQuota,
		aff_history_quota: user.affHistoryQuota,
		inviter_id: user.inviterId,
		created_time: user.createdTime,
		last_login_time: user.lastLoginTime,
		deleted_at: user.deletedAt,
		rpm_limit: user.rpmLimit,
		tpm_limit: user.tpmLimit,
		rpd_limit: user.rpdLimit,
		concurrency_limit: user.concurrencyLimit,
	}
}

export function toSessionUser(user: UserRecord): SessionUser {
	const { id, username, display_name, role, status, group } = toUserView(user)
	return { id, username, display_name, role, status, group, password_change_required: user.passwordChangeRequired }
}
