import { CircleAlertIcon, CircleCheckIcon, InfoIcon, XIcon } from 'lucide-react'
import { useSyncExternalStore } from 'react'
import { useTranslation } from '@ui/i18n'
import { cn, noteToastPress } from '@ui/lib/utils'

type ToastKind = 'success' | 'error' | 'info'
type ToastItem = { id: number; kind: ToastKind; message: string }

const noToasts: ToastItem[] = []
let toasts = noToasts
let nextId = 1
const listeners = new Set<() => void>()

function publish(next: ToastItem[]) {
	toasts = next
	for (const listener of listeners) listener()
}

export function dismissToast(id: number) {
	publish(toasts.filter((item) => item.id !== id))
}

/**
 * A new toast replaces the shown one of its kind (at most one success, one error and one info at a
 * time) and shows on top; a success also takes away a shown error, which the latest action has made
 * stale. So an old red message never sits over the answer to the latest action. A replaced toast's
 * timer finds nothing to dismiss.
 */
function show(kind: ToastKind, message: string, durationMs = 4000) {
	const id = nextId++
	const stays = (item: ToastItem) => item.kind !== kind && !(kind === 'success' && item.kind === 'error')
	publish([{ id, kind, message }, ...toasts.filter(stays)])
	setTimeout(() => dismissToast(id), durationMs)
}

/** Callers pass text that is already translated. */
export const toast = {
	success: (message: string) => show('success', message),
	error: (message: string) => show('error', message, 6000),
	info: (message: string) => show('info', message),
}

const icons = { success: CircleCheckIcon, error: CircleAlertIcon, info: InfoIcon }

export function Toaster() {
	const { t } = useTranslation()
	const items = useSyncExternalStore(
		(listener) => {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
		() => toasts,
		() => noToasts,
	)
	return (
		<section aria-live="polite" data-toaster="" onPointerDownCapture={(event) => noteToastPress(event.nativeEvent)} className="pointer-events-none fixed top-4 right-4 z-[100] flex w-80 max-w-[calc(100%-2rem)] flex-col gap-2">
			{items.map((item) => {
				const Icon = icons[item.kind]
				return (
					<div
						key={item.id}
						role={item.kind === 'error' ? 'alert' : 'status'}
						data-kind={item.kind}
						className={cn(
							'pointer-events-auto flex items-start gap-3 rounded-md border bg-popover p-3 text-sm text-popover-foreground shadow-md animate-in fade-in-0 slide-in-from-top-2',
							item.kind === 'error' && 'border-destructive/50 text-destructive',
						)}
					>
						<Icon className="mt-0.5 size-4 shrink-0" />
						<p className="flex-1 break-words">{item.message}</p>
						<button type="button" aria-label={t('关闭')} className="opacity-60 hover:opacity-100" onClick={() => dismissToast(item.id)}>
							<XIcon className="size-4" />
						</button>
					</div>
				)
			})}
		</section>
	)
}
