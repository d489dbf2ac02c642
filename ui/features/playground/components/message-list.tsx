import { useEffect, useRef } from 'react'
import { cn } from '@ui/lib/utils'
import { useTranslation } from '@ui/i18n'
import { MESSAGE_STATE, type PlaygroundMessage } from '@ui/features/playground/conversation'

/**
 * The conversation. Model output is text, never HTML (design §8): React escapes it. Each message
 * carries its state in `data-state` for styling and for the browser tests.
 */
export function MessageList({ messages }: { messages: PlaygroundMessage[] }) {
	const { t } = useTranslation()
	const end = useRef<HTMLDivElement>(null)
	const last = messages.at(-1)
	useEffect(() => {
		end.current?.scrollIntoView?.({ block: 'end' })
	}, [messages.length, last?.content, last?.state])

	if (messages.length === 0) {
		return <p className="m-auto text-sm text-muted-foreground">{t('在下方输入消息，开始对话')}</p>
	}
	return (
		<div>
			<ol className="flex flex-col gap-3" aria-label={t('对话')}>
			{messages.map((message) => (
				<li
					key={message.id}
					data-role={message.role}
					data-state={message.state}
					className={cn('flex', message.role === 'user' ? 'justify-end' : 'justify-start')}
				>
					<div
						className={cn(
							'max-w-[85%] rounded-lg px-3 py-2 text-sm',
							message.role === 'user' ? 'bg-primary text-primary-foreground' : 'bg-muted',
							message.state === MESSAGE_STATE.error && 'border border-destructive/40 bg-destructive/10',
						)}
					>
						{message.content && <div className="whitespace-pre-wrap break-words" data-slot="message-content">{message.content}</div>}
						{message.state === MESSAGE_STATE.loading && <span className="animate-pulse text-muted-foreground">{t('正在思考…')}</span>}
						{message.state === MESSAGE_STATE.incomplete && <span className="ml-1 inline-block h-3 w-1.5 animate-pulse bg-current align-middle" aria-hidden />}
						{message.state === MESSAGE_STATE.error && <p role="alert" className="text-destructive">{message.error}</p>}
					</div>
				</li>
			))}
			</ol>
			<div ref={end} />
		</div>
	)
}
