import { PlusIcon, SendIcon, SlidersHorizontalIcon, SquareIcon } from 'lucide-react'
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { useLoaderData } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Textarea } from '@ui/components/ui/textarea'
import { useTranslation } from '@ui/i18n'
import { useCurrentUser } from '@ui/lib/session'
import { cn } from '@ui/lib/utils'
import { MessageList } from '@ui/features/playground/components/message-list'
import { SettingsPanel } from '@ui/features/playground/components/settings-panel'
import { appendText, defaultModel, finish, MESSAGE_STATE, outgoingMessages, type PlaygroundMessage, type PlaygroundSettings, TEMPERATURE } from '@ui/features/playground/conversation'
import type { PlaygroundData } from '@ui/features/playground/playground-route'
import { PlaygroundError, streamChat } from '@ui/features/playground/stream'

const stoppedMessage = '已停止生成'
const failedMessage = '请求失败'

/** Seed 002 §2, §4: the settings sidebar (collapsed under 600 px) and the streamed conversation. */
export function PlaygroundPage() {
	const { t } = useTranslation()
	const data = useLoaderData() as PlaygroundData
	const user = useCurrentUser()
	const [settings, setSettings] = useState<PlaygroundSettings>(() => ({
		group: user && Object.hasOwn(data.groups, user.group) ? user.group : Object.keys(data.groups)[0] ?? '',
		model: defaultModel(data.models),
		// Seed 002 asks for temperature 0 by default; the slider's range starts at 0.1.
		temperature: TEMPERATURE.min,
		maxTokens: 0,
		systemPrompt: '',
	}))
	const [messages, setMessages] = useState<PlaygroundMessage[]>([])
	const [input, setInput] = useState('')
	const [busy, setBusy] = useState(false)
	const [settingsOpen, setSettingsOpen] = useState(false)
	const running = useRef<AbortController | null>(null)
	const nextId = useRef(1)

	useEffect(() => () => running.current?.abort(), [])

	async function send() {
		const question = input.trim()
		if (!question || busy || !settings.model) return
		const asked: PlaygroundMessage = { id: nextId.current++, role: 'user', content: question, state: MESSAGE_STATE.complete }
		const replyId = nextId.current++
		const history = [...messages, asked]
		setMessages([...history, { id: replyId, role: 'assistant', content: '', state: MESSAGE_STATE.loading }])
		setInput('')
		const controller = new AbortController()
		running.current = controller
		setBusy(true)
		try {
			await streamChat(
				{ messages: outgoingMessages(settings.systemPrompt, history), model: settings.model, group: settings.group, temperature: settings.temperature, maxTokens: settings.maxTokens },
				(text) => setMessages((current) => appendText(current, replyId, text)),
				controller.signal,
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
			setBusy(false)
		}
	}

	function stop() {
		running.current?.abort()
	}

	function newConversation() {
		running.current?.abort()
		setMessages([])
	}

	function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
		if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
		event.preventDefault()
		void send()
	}

	return (
		<div className="flex gap-4 max-[600px]:flex-col">
			<aside className={cn('w-72 shrink-0 rounded-lg border p-4 max-[600px]:w-full', !settingsOpen && 'max-[600px]:hidden')} aria-label={t('设置')}>
				<SettingsPanel settings={settings} onChange={(changes) => setSettings((current) => ({ ...current, ...changes }))} groups={data.groups} models={data.models} />
			</aside>
			<section className="flex h-[calc(100dvh-12rem)] min-h-[420px] min-w-0 flex-1 flex-col gap-3 rounded-lg border p-4">
				<div className="flex flex-wrap items-center justify-between gap-2">
					<h1 className="text-lg font-semibold">{t('操练场')}</h1>
					<div className="flex gap-2">
						<Button variant="outline" size="sm" className="min-[600px]:hidden" aria-expanded={settingsOpen} onClick={() => setSettingsOpen((open) => !open)}>
							<SlidersHorizontalIcon />
							{t('设置')}
						</Button>
						<Button variant="outline" size="sm" onClick={newConversation}>
							<PlusIcon />
							{t('新对话')}
						</Button>
					</div>
				</div>
				<div className="flex min-h-0 flex-1 flex-col overflow-y-auto">
					<MessageList messages={messages} />
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
						<Button onClick={() => void send()} disabled={!input.trim() || !settings.model}>
							<SendIcon />
							{t('发送')}
						</Button>
					)}
				</div>
			</section>
		</div>
	)
}
