import { CopyIcon, FileJsonIcon, RefreshCwIcon } from 'lucide-react'
import { lazy, Suspense, useEffect, useRef } from 'react'
import { Button } from '@ui/components/ui/button'
import { copyText } from '@ui/components/ui/copy'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { cn } from '@ui/lib/utils'
import { MESSAGE_STATE, type PlaygroundMessage } from '@ui/features/playground/conversation'

/** Markdown (and `marked`) load with the first reply, never with the page. */
const MarkdownView = lazy(() => import('@ui/features/playground/markdown/markdown-view').then((module) => ({ default: module.MarkdownView })))

/** A reply costs little: six decimals keep its dollars readable (as the log shows a call's cost). */
const REPLY_COST_DIGITS = 6

type MessageListProps = {
	messages: PlaygroundMessage[]
	/** A reply is under way: no reply can be asked again meanwhile. */
	busy: boolean
	onRegenerate: (replyId: number) => void
	onShowExchange: (message: PlaygroundMessage) => void
}

/**
 * The conversation. A reply's Markdown is rendered as elements (never HTML, docs/operations/security.md#requests-ferry-receives); a question
 * shows as typed. Each message can be copied; a reply can be asked again, shows its tokens, cost and
 * time, and its raw request and answer. Each message carries its state in `data-state`.
 */
export function MessageList({ messages, busy, onRegenerate, onShowExchange }: MessageListProps) {
	const { t } = useTranslation()
	const end = useRef<HTMLDivElement>(null)
	const last = messages.at(-1)
	useEffect(() => {
		end.current?.scrollIntoView?.({ block: 'end' })
	}, [messages.length, last?.content, last?.state, last?.usage])

	if (messages.length === 0) {
		return <p className="m-auto text-sm text-muted-foreground">{t('在下方输入消息，开始对话')}</p>
	}
	return (
		<div>
			<ol className="flex flex-col gap-4" aria-label={t('对话')}>
				{messages.map((message) => (
					<li
						key={message.id}
						data-role={message.role}
						data-state={message.state}
						className={cn('group/message flex flex-col gap-1', message.role === 'user' ? 'items-end' : 'items-start')}
					>
						<div
							className={cn(
								'max-w-[85%] min-w-0 rounded-lg px-3 py-2 text-sm',
								message.role === 'user' ? 'bg-primary text-primary-foreground' : 'bg-muted',
								message.state === MESSAGE_STATE.error && 'border border-destructive/40 bg-destructive/10',
							)}
						>
							{message.content && (message.role === 'assistant'
								? (
									<div data-slot="message-content">
										<Suspense fallback={<div className="whitespace-pre-wrap break-words">{message.content}</div>}>
											<MarkdownView text={message.content} />
										</Suspense>
									</div>
								)
								: <div className="whitespace-pre-wrap break-words" data-slot="message-content">{message.content}</div>)}
							{message.state === MESSAGE_STATE.loading && <span className="animate-pulse text-muted-foreground">{t('正在思考…')}</span>}
							{message.state === MESSAGE_STATE.incomplete && <span className="ml-1 inline-block h-3 w-1.5 animate-pulse bg-current align-middle" aria-hidden />}
							{message.state === MESSAGE_STATE.error && <p role="alert" className="text-destructive">{message.error}</p>}
						</div>
						<MessageFooter message={message} busy={busy} onRegenerate={onRegenerate} onShowExchange={onShowExchange} />
					</li>
				))}
			</ol>
			<div ref={end} />
		</div>
	)
}

function MessageFooter({ message, busy, onRegenerate, onShowExchange }: { message: PlaygroundMessage } & Omit<MessageListProps, 'messages'>) {
	const { t } = useTranslation()
	const status = useStatus()
	const reply = message.role === 'assistant'
	const settled = message.state === MESSAGE_STATE.complete || message.state === MESSAGE_STATE.error
	if (!settled) return null
	return (
		<div className="flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
			{reply && message.usage && (
				<span data-testid="reply-usage" className="mr-1 tabular-nums">
					{t('提示 {prompt} · 补全 {completion} · 花费 {cost}', {
						prompt: message.usage.promptTokens,
						completion: message.usage.completionTokens,
						cost: renderQuota(message.usage.quota, status, REPLY_COST_DIGITS),
					})}
					{message.seconds !== undefined && ` · ${t('{seconds} 秒', { seconds: message.seconds.toFixed(1) })}`}
				</span>
			)}
			{reply && message.usage === null && <span className="mr-1">{t('花费未知')}</span>}
			{message.content && (
				<Button variant="ghost" size="icon" className="size-6" aria-label={t('复制')} title={t('复制')} onClick={() => copyText(message.content, t)}>
					<CopyIcon />
				</Button>
			)}
			{reply && (
				<Button variant="ghost" size="icon" className="size-6" aria-label={t('重新生成')} title={t('重新生成')} disabled={busy} onClick={() => onRegenerate(message.id)}>
					<RefreshCwIcon />
				</Button>
			)}
			{reply && message.exchange && (
				<Button variant="ghost" size="icon" className="size-6" aria-label={t('查看原始请求和响应')} title={t('查看原始请求和响应')} onClick={() => onShowExchange(message)}>
					<FileJsonIcon />
				</Button>
			)}
		</div>
	)
}
