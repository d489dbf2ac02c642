import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { useTranslation } from '@ui/i18n'
import type { ExchangeRecord } from '@ui/features/playground/stream'

/** A request body as sent, indented when it is JSON. */
function readable(text: string) {
	try {
		return JSON.stringify(JSON.parse(text), null, 2)
	} catch {
		return text
	}
}

/** A reply's request and answer as they went over the wire: the JSON sent and the events received. */
export function ExchangeDialog({ exchange, onClose }: { exchange: ExchangeRecord | null; onClose: () => void }) {
	const { t } = useTranslation()
	return (
		<Dialog open={exchange !== null} onOpenChange={(open) => !open && onClose()}>
			<DialogContent className="flex max-h-[90svh] flex-col sm:max-w-3xl" data-testid="exchange-dialog">
				<DialogHeader>
					<DialogTitle>{t('原始请求和响应')}</DialogTitle>
					<DialogDescription>{exchange?.requestId ? t('请求 ID：{id}', { id: exchange.requestId }) : t('POST /pg/chat/completions')}</DialogDescription>
				</DialogHeader>
				<div className="flex min-h-0 flex-col gap-3 overflow-y-auto">
					<section className="flex flex-col gap-1">
						<h3 className="text-sm font-medium">{t('请求')}</h3>
						<pre className="max-h-72 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs" data-testid="raw-request">{readable(exchange?.request ?? '')}</pre>
					</section>
					<section className="flex flex-col gap-1">
						<h3 className="text-sm font-medium">{t('响应')}</h3>
						<pre className="max-h-96 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs whitespace-pre-wrap break-all" data-testid="raw-answer">{exchange?.answer ?? ''}</pre>
					</section>
				</div>
			</DialogContent>
		</Dialog>
	)
}
