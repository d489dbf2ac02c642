import { HistoryIcon, PlusIcon, SendIcon, SlidersHorizontalIcon, SquareIcon, Trash2Icon, TriangleAlertIcon } from 'lucide-react'
import { type KeyboardEvent, lazy, Suspense, useEffect, useRef, useState } from 'react'
import { Link, useLoaderData } from 'react-router'
import type { Page } from '@shared/api'
import type { LogEntry } from '@shared/log'
import { LOG_TYPE } from '@shared/log-constants'
import { Button } from '@ui/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@ui/components/ui/dropdown-menu'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { isRoot, useCurrentUser } from '@ui/lib/session'
import { cn } from '@ui/lib/utils'
import { MessageList } from '@ui/features/playground/components/message-list'
import { SettingsPanel } from '@ui/features/playground/components/settings-panel'
import {
	annotate, appendText, defaultModel, finish, MESSAGE_STATE, outgoingMessages, type PlaygroundMessage, type PlaygroundSettings,
	type ReplyUsage, TEMPERATURE, turnsBefore,
} from '@ui/features/playground/conversation'
import type { PlaygroundData } from '@ui/features/playground/playground-route'
import { forgetConversations, newConversationId, readConversations, saveConversation, type SavedConversation } from '@ui/features/playground/saved-conversations'
import { type ExchangeRecord, PlaygroundError, streamChat } from '@ui/features/playground/stream'

/** The raw view's code loads when first opened. */
const ExchangeDialog = lazy(() => import('@ui/features/playground/components/exchange-dialog').then((module) => ({ default: module.ExchangeDialog })))

const stoppedMessage = '已停止生成'
const failedMessage = '请求失败'
/** A reply's log entry is written as its stream ends: it is looked for a few times, a little later each. */
const CHARGE_LOOKUPS = 6
const CHARGE_LOOKUP_STEP_MS = 250

/** What the reply with this request id was charged, from its log entry; null when it cannot be found. */
async function replyCharge(requestId: string): Promise<ReplyUsage | null> {
	if (!requestId) return null
	for (let attempt = 1; attempt <= CHARGE_LOOKUPS; attempt++) {
		const envelope = await browserApi.get<Page<LogEntry>>(`/api/log/self/?${new URLSearchParams({ request_id: requestId, type: String(LOG_TYPE.consume), p: '1', page_size: '1' })}`).catch(() => undefined)
		const entry = envelope?.success ? envelope.data.items[0] : undefined
		if (entry) return { promptTokens: entry.prompt_tokens, completionTokens: entry.completion_tokens, quota: entry.quota }
		await new Promise((resolve) => setTimeout(resolve, CHARGE_LOOKUP_STEP_MS * attempt))
	}
	return null
}

const nextIdAfter = (messages: PlaygroundMessage[]) => Math.max(0, ...messages.map((message) => message.id)) + 1

/**
 * The playground (docs/specification/playground-and-chat.md#the-playground): the settings sidebar (collapsed under 600 px) and the streamed conversation. A
 * reply can be stopped, copied, asked again and read raw, and shows what it cost; conversations are
 * kept in this browser and listed under 历史对话.
 */
export function PlaygroundPage() {
	const { t } = useTranslation()
	const data = useLoaderData() as PlaygroundData
	const user = useCurrentUser()
	const [settings, setSettings] = useState<PlaygroundSettings>(() => ({
		group: user && Object.hasOwn(data.groups, user.group) ? user.group : Object.keys(data.groups)[0] ?? '',
		model: defaultModel(data.models),
		// Temperature 0 is asked for by default; the slider's range starts at 0.1.
		temperature: TEMPERATURE.min,
		maxTokens: 0,
		systemPrompt: '',
	}))
	const [messages, setMessages] = useState<PlaygroundMessage[]>([])
	const [conversationId, setConversationId] = useState('')
	const [saved, setSaved] = useState<SavedConversation[]>([])
	const [input, setInput] = useState('')
	const [busy, setBusy] = useState(false)
	const [settingsOpen, setSettingsOpen] = useState(false)
	const [shownExchange, setShownExchange] = useState<ExchangeRecord | null>(null)
	const exchangeOpened = useRef(false)
	if (shownExchange) exchangeOpened.current = true
	const running = useRef<AbortController | null>(null)
	const nextId = useRef(1)

	// The browser's conversations, after hydration (the server has none): the newest is taken up again.
	useEffect(() => {
		const conversations = readConversations()
		setSaved(conversations)
		const newest = conversations[0]
		if (newest) {
			setConversationId(newest.id)
			setMessages(newest.messages)
			nextId.current = nextIdAfter(newest.messages)
		} else {
			setConversationId(newConversationId())
		}
	}, [])

	// Kept whenever no reply is streaming.
	useEffect(() => {
		if (busy || !conversationId) return
		saveConversation(conversationId, messages)
		setSaved(readConversations())
	}, [busy, conversationId, messages])

	useEffect(() => () => running.current?.abort(), [])

	/** Streams a reply to `history` (which ends with the user's question) after it in the conversation. */
	async function reply(history: PlaygroundMessage[]) {
		const replyId = nextId.current++
		const model = settings.model
		setMessages([...history, { id: replyId, role: 'assistant', content: '', state: MESSAGE_STATE.loading, model }])
		const controller = new AbortController()
		running.current = controller
		setBusy(true)
		const started = performance.now()
		let exchange: ExchangeRecord | undefined
		try {
			await streamChat(
				{ messages: outgoingMessages(settings.systemPrompt, history), model, group: settings.group, temperature: settings.temperature, maxTokens: settings.maxTokens },
				(text) => setMessages((current) => appendText(current, replyId, text)),
				controller.signal,
				(record) => { exchange = record },
			)
			setMessages((current) => finish(current, replyId))
		} catch (error) {
			if (controller.signal.aborted) {
				// A stopped reply keeps what arrived; one stopped before any text says so.
				setMessages((current) => finish(current, replyId, current.find((message) => message.id === replyId)?.content ? {} : { error: t(stoppedMessage) }))
			} else {
				setMessages((current) => finish(current, replyId, { error: error instanceof PlaygroundError ? error.message : t(failedMessage) }))
			}
		} finally {
			if (running.current === controller) running.current = null
			setMessages((current) => annotate(current, replyId, { seconds: (performance.now() - started) / 1000, exchange }))
			setBusy(false)
		}
		// A stopped or failed call may still have been charged (what the upstream produced): the log says.
		const usage = await replyCharge(exchange?.requestId ?? '')
		setMessages((current) => annotate(current, replyId, { usage }))
	}

	function send() {
		const question = input.trim()
		if (!question || busy || !settings.model) return
		setInput('')
		void reply([...messages, { id: nextId.current++, role: 'user', content: question, state: MESSAGE_STATE.complete }])
	}

	/** Asks the question before this reply again; the reply and what followed it go. */
	function regenerate(replyId: number) {
		if (busy) return
		void reply(turnsBefore(messages, replyId))
	}

	function stop() {
		running.current?.abort()
	}

	function startConversation(conversation?: SavedConversation) {
		running.current?.abort()
		setConversationId(conversation?.id ?? newConversationId())
		setMessages(conversation?.messages ?? [])
		nextId.current = nextIdAfter(conversation?.messages ?? [])
	}

	function forgetAll() {
		running.current?.abort()
		forgetConversations()
		setSaved([])
		startConversation()
	}

	function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
		if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
		event.preventDefault()
		send()
	}

	return (
		<div className="flex flex-col gap-3">
			{data.unpricedModels.length > 0 && <UnpricedNotice models={data.unpricedModels} />}
			<div className="flex gap-4 max-[600px]:flex-col">
				<aside className={cn('w-72 shrink-0 rounded-lg border p-4 max-[600px]:w-full', !settingsOpen && 'max-[600px]:hidden')} aria-label={t('设置')}>
					<SettingsPanel settings={settings} onChange={(changes) => setSettings((current) => ({ ...current, ...changes }))} groups={data.groups} models={data.models} />
				</aside>
				<section className="flex h-[calc(100dvh-12rem)] min-h-[420px] min-w-0 flex-1 flex-col gap-3 rounded-lg border p-4">
					<div className="flex flex-wrap items-center justify-between gap-2">
						<h1 className="text-lg font-semibold">{t('操练场')}</h1>
						<div className="flex flex-wrap gap-2">
							<Button variant="outline" size="sm" className="min-[600px]:hidden" aria-expanded={settingsOpen} onClick={() => setSettingsOpen((open) => !open)}>
								<SlidersHorizontalIcon />
								{t('设置')}
							</Button>
							<DropdownMenu>
								<DropdownMenuTrigger asChild>
									<Button variant="outline" size="sm" disabled={saved.length === 0}>
										<HistoryIcon />
										{t('历史对话')}
									</Button>
								</DropdownMenuTrigger>
								<DropdownMenuContent align="end" className="max-w-72">
									<DropdownMenuLabel className="text-xs text-muted-foreground">{t('保存在此浏览器中')}</DropdownMenuLabel>
									{saved.map((conversation) => (
										<DropdownMenuItem key={conversation.id} onSelect={() => startConversation(conversation)} className={cn(conversation.id === conversationId && 'font-medium')}>
											<span className="truncate">{conversation.title || t('新对话')}</span>
										</DropdownMenuItem>
									))}
									<DropdownMenuSeparator />
									<DropdownMenuItem variant="destructive" onSelect={forgetAll}>
										<Trash2Icon />
										{t('清空历史对话')}
									</DropdownMenuItem>
								</DropdownMenuContent>
							</DropdownMenu>
							<Button variant="outline" size="sm" onClick={() => startConversation()}>
								<PlusIcon />
								{t('新对话')}
							</Button>
						</div>
					</div>
					<div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
						<MessageList messages={messages} busy={busy} onRegenerate={regenerate} onShowExchange={(message) => setShownExchange(message.exchange ?? null)} />
					</div>
					<div className="flex items-end gap-2">
						<Textarea
							aria-label={t('消息')}
							rows={2}
							value={input}
							placeholder={t('输入消息，Enter 发送，Shift+Enter 换行')}
							onChange={(event) => setInput(event.target.value)}
							onKeyDown={onKeyDown}
							className="max-h-40 resize-none"
						/>
						{busy ? (
							<Button variant="destructive" onClick={stop}>
								<SquareIcon />
								{t('停止')}
							</Button>
						) : (
							<Button onClick={send} disabled={!input.trim() || !settings.model}>
								<SendIcon />
								{t('发送')}
							</Button>
						)}
					</div>
				</section>
			</div>
			{exchangeOpened.current && (
				<Suspense fallback={null}>
					<ExchangeDialog exchange={shownExchange} onClose={() => setShownExchange(null)} />
				</Suspense>
			)}
		</div>
	)
}

/** For admins: models the channels offer that have no price, which the model list therefore leaves out. */
function UnpricedNotice({ models }: { models: string[] }) {
	const { t } = useTranslation()
	const superAdmin = isRoot(useCurrentUser())
	return (
		<div role="status" data-testid="playground-unpriced" className="flex gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm">
			<TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
			<p>
				{t('这些渠道模型没有价格，不会出现在模型列表中：{models}', { models: models.join(', ') })}
				{superAdmin && (
					<>
						{' '}
						<Link className="underline" to="/setting?tab=operation&unpriced=true#model-ratio">{t('去倍率设置为它们定价')}</Link>
					</>
				)}
			</p>
		</div>
	)
}
