/**
 * Forgetting remembered sessions (`POST /api/affinity/purge`): every one, or one named as its client
 * sent it with its user and model (Ferry keeps only a hash of the three). The next call of a
 * forgotten session chooses its key afresh.
 */
import { type FormEvent, useState } from 'react'
import type { PurgeAffinityAnswer } from '@shared/affinity'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { Field } from '@ui/components/ui/field'
import { Input } from '@ui/components/ui/input'
import { toast } from '@ui/components/ui/toaster'
import { SectionCard } from '@ui/features/settings/option-fields'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { type FormProblem, useFormProblem } from '@ui/lib/use-form-problem'

export const purgeMessages = {
	sessionIncomplete: '清除单个会话时须填写用户 ID、模型和会话值',
	userIdInvalid: '用户 ID 必须是正整数',
} as const

type SessionFields = { userId: string; model: string; session: string }

/** The one session to purge, or the first problem with the fields. */
export function readSession(fields: SessionFields): { value: { user_id: number; model: string; session: string } } | { problem: FormProblem } {
	const missing = (['userId', 'model', 'session'] as const).filter((name) => !fields[name].trim())
	if (missing.length > 0) return { problem: { message: purgeMessages.sessionIncomplete, fields: missing } }
	const userId = Number(fields.userId.trim())
	if (!Number.isSafeInteger(userId) || userId <= 0) return { problem: { message: purgeMessages.userIdInvalid, fields: ['userId'] } }
	return { value: { user_id: userId, model: fields.model.trim(), session: fields.session.trim() } }
}

const purge = (body: Record<string, unknown>) => browserApi.post<PurgeAffinityAnswer>('/api/affinity/purge', body)

export function AffinitySessionsSection() {
	const { t } = useTranslation()
	const problems = useFormProblem()
	const [fields, setFields] = useState<SessionFields>({ userId: '', model: '', session: '' })
	const [confirmingAll, setConfirmingAll] = useState(false)
	const [running, setRunning] = useState(false)
	const set = (name: keyof SessionFields, value: string) => setFields((current) => ({ ...current, [name]: value }))

	/** The server words how many it forgot, in the page's language. */
	async function run(body: Record<string, unknown>) {
		setRunning(true)
		try {
			const envelope = await callApi(t, purge(body))
			if (envelope) toast.success(t(envelope.message))
			return envelope !== undefined
		} finally {
			setRunning(false)
		}
	}

	async function purgeOne(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const session = readSession(fields)
		if (problems.report('problem' in session ? session.problem : undefined) || !('value' in session)) return
		if (await run(session.value)) setFields((current) => ({ ...current, session: '' }))
	}

	return (
		<SectionCard id="affinity-sessions" title="会话亲和记录" description="清除记住的会话后，它的下一次调用重新选择密钥">
			<form noValidate onSubmit={purgeOne} className="flex flex-col gap-4" aria-label={t('清除一个会话')}>
				<div className="grid grid-cols-1 gap-4 md:grid-cols-3">
					<Field id="affinity-user-id" label="用户 ID" error={problems.errorOf('userId')}>
						<Input id="affinity-user-id" inputMode="numeric" value={fields.userId} autoComplete="off" onChange={(event) => set('userId', event.target.value)} {...problems.control('userId', 'affinity-user-id')} />
					</Field>
					<Field id="affinity-model" label="模型" error={problems.errorOf('model')}>
						<Input id="affinity-model" value={fields.model} autoComplete="off" placeholder={t('例如：gpt-4o')} onChange={(event) => set('model', event.target.value)} {...problems.control('model', 'affinity-model')} />
					</Field>
					<Field id="affinity-session" label="会话值" hint={t('客户端发送的值，例如 prompt_cache_key 或 x-session-id 请求头')} error={problems.errorOf('session')}>
						<Input id="affinity-session" value={fields.session} autoComplete="off" spellCheck={false} onChange={(event) => set('session', event.target.value)} {...problems.control('session', 'affinity-session')} />
					</Field>
				</div>
				<div className="flex flex-wrap gap-2">
					<Button type="submit" variant="outline" disabled={running}>{t('清除该会话')}</Button>
					<Button type="button" variant="destructive" disabled={running} onClick={() => setConfirmingAll(true)}>{t('清除所有会话')}</Button>
				</div>
			</form>
			<ConfirmDialog
				open={confirmingAll}
				onOpenChange={setConfirmingAll}
				title={t('清除所有会话？')}
				description={t('每个节点都会忘记所有会话；之后每个会话的下一次调用重新选择密钥，上游的提示缓存可能因此失效一次。')}
				confirmText={t('清除')}
				destructive
				onConfirm={() => void run({})}
			/>
		</SectionCard>
	)
}
