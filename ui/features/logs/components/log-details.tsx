import type { ReactNode } from 'react'
import { affinityOf, attemptsOf, CALL_COST_DIGITS, costFormula, effectiveGroupRatio, isUsage, keyIndexOf, otherNumber, otherText, usedChannels, type LogRow } from '@ui/features/logs/log-display'
import { useTranslation } from '@ui/i18n'
import { millisecondsAsSeconds, renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'

/** `other` keys shown as they are, with their zh labels (docs/specification/logs-and-dashboard.md#log-lines). */
const detailFields = [
	['group', '分组'],
	['model_ratio', '模型倍率'],
	['completion_ratio', '补全倍率'],
	['cache_ratio', '缓存倍率'],
	['cache_tokens', '缓存 Tokens'],
	['model_price', '模型价格'],
	['group_ratio', '分组倍率'],
	['user_group_ratio', '用户专属分组倍率'],
	['audio_input', '音频输入'],
	['audio_output', '音频输出'],
	['text_input', '文字输入'],
	['text_output', '文字输出'],
	['reasoning_effort', '推理强度'],
] as const

/** The expanded row: the entry's details, the channels tried (admins) and the billing formula. */
export function LogDetails({ entry, admin }: { entry: LogRow; admin: boolean }) {
	const { t } = useTranslation()
	const status = useStatus()
	const { other } = entry
	const rows: { label: string; value: ReactNode }[] = []
	if (admin) {
		const channels = usedChannels(other)
		if (channels.length > 0) rows.push({ label: '使用渠道', value: channels.join(' → ') })
		const keyIndex = keyIndexOf(other)
		if (keyIndex !== undefined) rows.push({ label: '使用密钥', value: `#${keyIndex}` })
		const attempts = attemptsOf(other)
		if (attempts.length > 0) {
			rows.push({
				label: '尝试',
				value: (
					<ol data-testid="log-attempts" className="flex flex-col">
						{attempts.map((attempt, index) => (
							<li key={index}>{t('渠道 {channel} 密钥 #{key} → {outcome}', { channel: attempt.channel, key: attempt.key, outcome: t(attempt.outcome) })}</li>
						))}
					</ol>
				),
			})
		}
	}
	// The owner sees how affinity went too: it says nothing of channels or keys.
	const affinity = affinityOf(other)
	if (affinity) {
		const values = { state: t(affinity.state), source: t(affinity.source) }
		rows.push({
			label: '会话亲和',
			value: <span data-testid="log-affinity">{affinity.reason ? t('{state}：{reason}（{source}）', { ...values, reason: t(affinity.reason) }) : t('{state}（{source}）', values)}</span>,
		})
	}
	// Who paid a call: a subscription (its plan's name) or the wallet.
	if (isUsage(entry.type) && entry.subscription_id) {
		const plan = otherText(other, 'plan_name')
		rows.push({ label: '支付来源', value: <span data-testid="log-source">{plan ? t('套餐「{name}」（订阅 #{id}）', { name: plan, id: entry.subscription_id }) : t('订阅 #{id}', { id: entry.subscription_id })}</span> })
	} else if (isUsage(entry.type) && entry.subscription_id === 0 && other.channel_test !== true) {
		rows.push({ label: '支付来源', value: <span data-testid="log-source">{t('钱包')}</span> })
	}
	// What the call cost the operator on its channel (admins only).
	if (admin && isUsage(entry.type) && entry.cost !== undefined) {
		rows.push({ label: '成本', value: <span data-testid="log-operator-cost">{entry.cost === null ? t('未知') : renderQuota(entry.cost, status, CALL_COST_DIGITS)}</span> })
	}
	// The token counts' columns fold on narrower screens: the details keep them.
	if (isUsage(entry.type)) rows.push({ label: '提示', value: entry.prompt_tokens }, { label: '补全', value: entry.completion_tokens })
	for (const [key, label] of detailFields) {
		const value = key === 'group' ? otherText(other, key) ?? (entry.group || undefined) : otherText(other, key)
		if (value !== undefined) rows.push({ label, value })
	}
	const firstToken = otherNumber(other, 'frt')
	if (firstToken !== undefined) rows.push({ label: '首字时间', value: t('{seconds} 秒', { seconds: millisecondsAsSeconds(firstToken, 1) }) })
	if (entry.request_id) rows.push({ label: '请求 ID', value: <code className="break-all">{entry.request_id}</code> })
	if (entry.content) rows.push({ label: '内容', value: entry.content })
	const formula = isUsage(entry.type) && effectiveGroupRatio(other) !== undefined ? costFormula(entry, status) : undefined
	if (formula) rows.push({ label: '计费过程', value: <span data-testid="cost-formula">{t(formula.template, formula.values)}</span> })

	if (rows.length === 0) return <p className="text-sm text-muted-foreground">{t('暂无详情')}</p>
	return (
		<dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm" data-testid="log-details">
			{rows.map((row) => (
				<div key={row.label} className="contents">
					<dt className="text-muted-foreground">{t(row.label)}</dt>
					<dd className="min-w-0 break-words">{row.value}</dd>
				</div>
			))}
		</dl>
	)
}
