import { useSyncExternalStore } from 'react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Textarea } from '@ui/components/ui/textarea'
import { toast } from '@ui/components/ui/toaster'
import { useTranslation } from '@ui/i18n'

let manualText: string | null = null
const listeners = new Set<() => void>()

function showManual(text: string | null) {
	manualText = text
	for (const listener of listeners) listener()
}

/**
 * Copies to the clipboard and toasts 已复制; where the browser refuses (no permission, plain HTTP)
 * a dialog shows the text to copy by hand (docs/specification/console.md#what-the-console-says).
 */
export async function copyText(text: string, t: (key: string) => string): Promise<boolean> {
	try {
		await navigator.clipboard.writeText(text)
		toast.success(t('已复制到剪贴板'))
		return true
	} catch {
		showManual(text)
		return false
	}
}

/** Mounted once by the root layout. */
export function ManualCopyDialog() {
	const { t } = useTranslation()
	const text = useSyncExternalStore(
		(listener) => {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
		() => manualText,
		() => null,
	)
	return (
		<Dialog open={text !== null} onOpenChange={(open) => !open && showManual(null)}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{t('无法复制到剪贴板，请手动复制')}</DialogTitle>
					<DialogDescription className="sr-only">{t('无法复制到剪贴板，请手动复制')}</DialogDescription>
				</DialogHeader>
				<Textarea readOnly value={text ?? ''} rows={4} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
			</DialogContent>
		</Dialog>
	)
}
