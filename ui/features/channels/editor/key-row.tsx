import { Trash2Icon } from 'lucide-react'
import { useState } from 'react'
import type { ChannelKeyView } from '@shared/channel'
import { CHANNEL_STATUS } from '@shared/channel-type'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { toast } from '@ui/components/ui/toaster'
import { ResponseTime } from '@ui/features/channels/components/metric-cells'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { useFormatTime } from '@ui/lib/time-zone'
import { deleteChannelKey, setChannelKeyStatus, testChannelKey } from './api'

const MILLISECONDS_PER_SECOND = 1000

function KeyStatus({ status }: { status: number }) {
	const { t } = useTranslation()
	if (status === CHANNEL_STATUS.enabled) return <Badge variant="green">{t('已启用')}</Badge>
	if (status === CHANNEL_STATUS.manuallyDisabled) return <Badge variant="red">{t('手动禁用')}</Badge>
	if (status === CHANNEL_STATUS.autoDisabled) return <Badge variant="yellow">{t('已自动禁用')}</Badge>
	return <Badge variant="grey">{t('未知状态')}</Badge>
}

type KeyRowProps = {
	channelId: number
	channelKey: ChannelKeyView
	/** Called after an action, to read the keys again. */
	onChanged: () => Promise<void>
}

/** One key: index, hint, status (with why and when it was disabled), last error, response and test time, and its actions. */
export function KeyRow({ channelId, channelKey: key, onChanged }: KeyRowProps) {
	const { t } = useTranslation()
	const formatTime = useFormatTime()
	const [busy, setBusy] = useState(false)
	const [confirmingDelete, setConfirmingDelete] = useState(false)
	const enabled = key.status === CHANNEL_STATUS.enabled
	const name = `#${key.index}`

	async function act(action: () => Promise<unknown>) {
		setBusy(true)
		try {
			await action()
			await onChanged()
		} finally {
			setBusy(false)
		}
	}

	/** A failed test is the upstream's answer, shown as an error and then on the row as its last error. */
	const test = () => act(async () => {
		const envelope = await callApi(t, testChannelKey(browserApi, channelId, key.index))
		if (!envelope) return
		const time = envelope.data.time
		toast.success(time < MILLISECONDS_PER_SECOND
			? t('密钥 {name} 测试成功，耗时 {milliseconds} 毫秒', { name, milliseconds: Math.round(time) })
			: t('密钥 {name} 测试成功，耗时 {seconds} 秒', { name, seconds: (time / MILLISECONDS_PER_SECOND).toFixed(2) }))
	})
	const toggle = () => act(() => callApi(
		t,
		setChannelKeyStatus(browserApi, channelId, key.index, enabled ? CHANNEL_STATUS.manuallyDisabled : CHANNEL_STATUS.enabled),
		enabled ? '密钥已禁用' : '密钥已启用',
	))
	const remove = () => act(() => callApi(t, deleteChannelKey(browserApi, channelId, key.index), '密钥已删除'))

	return (
		<li data-testid="channel-key" data-key-index={key.index} aria-label={t('密钥 {name}', { name })} className="flex flex-col gap-2 px-3 py-2.5 md:flex-row md:items-start md:justify-between md:gap-4">
			<div className="flex min-w-0 flex-col gap-1.5">
				<div className="flex flex-wrap items-center gap-2">
					<span className="font-medium tabular-nums">{name}</span>
					<code className="rounded bg-muted px-1.5 py-0.5 text-xs" data-testid="key-hint">{key.hint}</code>
					<KeyStatus status={key.status} />
					{/* A test on loopback may take under a millisecond: "untested" only when it never was. */}
					{(key.response_time > 0 || key.test_time === 0) && <ResponseTime milliseconds={key.response_time} />}
				</div>
				{/* The time in full, not in a tooltip: phones have none (an untested key's badge says so). */}
				{key.test_time > 0 && <p className="text-xs text-muted-foreground">{t('测试时间：{time}', { time: formatTime(key.test_time) })}</p>}
				{!enabled && (key.status_reason || key.status_time > 0) && (
					<p className="text-xs text-muted-foreground" data-testid="key-status-reason">
						{t('原因：{reason}', { reason: key.status_reason || t('未知') })}
						{key.status_time > 0 && <> · {t('时间：{time}', { time: formatTime(key.status_time) })}</>}
					</p>
				)}
				{key.last_error && (
					<p className="text-xs break-words text-destructive" data-testid="key-last-error">{t('最近错误：{error}', { error: key.last_error })}</p>
				)}
			</div>
			<div className="flex shrink-0 flex-wrap gap-2">
				<Button type="button" variant="outline" size="sm" disabled={busy} aria-label={t('测试密钥 {name}', { name })} onClick={() => void test()}>{t('测试')}</Button>
				<Button type="button" variant="outline" size="sm" disabled={busy} aria-label={t(enabled ? '禁用密钥 {name}' : '启用密钥 {name}', { name })} onClick={() => void toggle()}>
					{t(enabled ? '禁用' : '启用')}
				</Button>
				<Button type="button" variant="ghost" size="sm" disabled={busy} aria-label={t('删除密钥 {name}', { name })} className="text-destructive hover:text-destructive" onClick={() => setConfirmingDelete(true)}>
					<Trash2Icon />
					<span className="max-md:sr-only">{t('删除')}</span>
				</Button>
			</div>
			<ConfirmDialog
				open={confirmingDelete}
				onOpenChange={setConfirmingDelete}
				title={t('删除密钥 {name}', { name })}
				description={t('删除后这个密钥不再使用，它的序号也不会再分配；此操作不可撤销。')}
				confirmText={t('删除')}
				destructive
				onConfirm={() => void remove()}
			/>
		</li>
	)
}
