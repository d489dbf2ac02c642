/**
 * A multi-key channel's keys in its editor: each key by `#index`, masked tail and health, with its
 * own test, enable/disable and delete; more keys added, every key tested. Keys are never shown:
 * the server answers only hints. Every action's refusal is the server's message, in the page's
 * language; after each the keys are read again.
 */
import { KeyRoundIcon } from 'lucide-react'
import { useState } from 'react'
import type { ChannelKeyView } from '@shared/channel'
import { CHANNEL_STATUS, CHANNEL_TYPE } from '@shared/channel-type'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { Textarea } from '@ui/components/ui/textarea'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { addChannelKeys, getChannel, testAllChannelKeys } from './api'
import { Field } from './field'
import { KeyRow } from './key-row'

/** Keys listed at first, and added by each "show more": a pool may hold thousands. */
const KEYS_PER_PAGE = 50

/** The list's filter: every key, or those of one status. */
const FILTERS = [
	{ status: 0, label: '全部' },
	{ status: CHANNEL_STATUS.enabled, label: '已启用' },
	{ status: CHANNEL_STATUS.autoDisabled, label: '已自动禁用' },
	{ status: CHANNEL_STATUS.manuallyDisabled, label: '手动禁用' },
] as const

type KeysPanelProps = {
	channelId: number
	channelType: number
	/** The keys as the page's loader read them. */
	initialKeys: ChannelKeyView[]
}

export function KeysPanel({ channelId, channelType, initialKeys }: KeysPanelProps) {
	const { t } = useTranslation()
	const [keys, setKeys] = useState(initialKeys)
	const [filter, setFilter] = useState<number>(0)
	const [shown, setShown] = useState(KEYS_PER_PAGE)
	const [newKeys, setNewKeys] = useState('')
	const [busy, setBusy] = useState(false)

	/** Reads the keys again (after any change or test); a failed read leaves the list as it was. */
	async function reload() {
		const envelope = await getChannel(browserApi, channelId).catch(() => undefined)
		if (envelope?.success) setKeys(envelope.data.keys)
	}

	async function add() {
		if (!newKeys.trim()) {
			toast.error(t('请填写要添加的密钥'))
			return
		}
		setBusy(true)
		try {
			const envelope = await callApi(t, addChannelKeys(browserApi, channelId, newKeys))
			if (!envelope) return
			toast.success(t(envelope.message))
			setNewKeys('')
			await reload()
		} finally {
			setBusy(false)
		}
	}

	async function testAll() {
		setBusy(true)
		try {
			const envelope = await callApi(t, testAllChannelKeys(browserApi, channelId))
			if (!envelope) return
			const { tested, failed, pending } = envelope.data
			const summary = t('已测试 {tested} 个密钥，{failed} 个失败，{pending} 个仍在测试', { tested, failed, pending })
			if (failed > 0) toast.error(summary)
			else toast.success(summary)
			await reload()
		} finally {
			setBusy(false)
		}
	}

	const counts = {
		[CHANNEL_STATUS.enabled]: keys.filter((key) => key.status === CHANNEL_STATUS.enabled).length,
		[CHANNEL_STATUS.autoDisabled]: keys.filter((key) => key.status === CHANNEL_STATUS.autoDisabled).length,
		[CHANNEL_STATUS.manuallyDisabled]: keys.filter((key) => key.status === CHANNEL_STATUS.manuallyDisabled).length,
	} as Record<number, number>
	const listed = filter === 0 ? keys : keys.filter((key) => key.status === filter)
	const vertex = channelType === CHANNEL_TYPE.vertex

	return (
		<section aria-labelledby="channel-keys-title" className="flex flex-col gap-3" data-testid="channel-keys">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<h3 id="channel-keys-title" className="flex items-center gap-2 text-sm font-medium">
					<KeyRoundIcon className="size-4" />
					{t('密钥（{count} 个）', { count: keys.length })}
				</h3>
				<Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => void testAll()}>{t('测试所有密钥')}</Button>
			</div>
			<div className="flex flex-wrap gap-1" role="group" aria-label={t('按状态筛选密钥')}>
				{FILTERS.map((choice) => (
					<Button
						key={choice.status}
						type="button"
						size="sm"
						variant={filter === choice.status ? 'secondary' : 'ghost'}
						aria-pressed={filter === choice.status}
						className="h-7 px-2 text-xs"
						onClick={() => {
							setFilter(choice.status)
							setShown(KEYS_PER_PAGE)
						}}
					>
						{t(choice.label)}
						<Badge variant="grey" className="px-1.5">{choice.status === 0 ? keys.length : counts[choice.status]}</Badge>
					</Button>
				))}
			</div>
			{listed.length === 0
				? <p className="text-sm text-muted-foreground">{t('没有这种状态的密钥')}</p>
				: (
					<ul className="flex flex-col divide-y rounded-md border" aria-label={t('密钥列表')}>
						{listed.slice(0, shown).map((key) => <KeyRow key={key.index} channelId={channelId} channelKey={key} onChanged={reload} />)}
					</ul>
				)}
			{listed.length > shown && (
				<Button type="button" variant="ghost" size="sm" className="w-fit" onClick={() => setShown((count) => count + KEYS_PER_PAGE)}>
					{t('再显示 {count} 个（共 {total} 个）', { count: Math.min(KEYS_PER_PAGE, listed.length - shown), total: listed.length })}
				</Button>
			)}
			<Field id="channel-new-keys" label={t('添加密钥')} hint={t(vertex ? '服务账号的 JSON 密钥：多个写成 JSON 数组，或一行一个；已有的和重复的密钥会被忽略' : '一行一个密钥；已有的和重复的密钥会被忽略')}>
				<Textarea id="channel-new-keys" rows={3} value={newKeys} spellCheck={false} autoComplete="off" className="font-mono text-xs" onChange={(event) => setNewKeys(event.target.value)} />
				<Button type="button" variant="outline" size="sm" className="w-fit" disabled={busy} onClick={() => void add()}>{t('添加密钥')}</Button>
			</Field>
		</section>
	)
}
