import { type ClassValue, clsx } from 'clsx'
import { twMerge } from 'tailwind-merge'

export function cn(...inputs: ClassValue[]) {
	return twMerge(clsx(inputs))
}

/** Presses that began on a toast (the toaster notes them), by their native pointerdown event. */
const toastPresses = new WeakSet<Event>()

export function noteToastPress(event: Event) {
	toastPresses.add(event)
}

/**
 * For dialogs and drawers: a click on a toast (closing it) is not a click outside the dialog, which
 * would close the dialog too. Pass as `onInteractOutside`. Radix reports a press outside on its click,
 * when a toast's close button has already taken its toast (and the target) out of the page: the press
 * is recognised by its pointerdown event, which the toaster noted while the toast was still there.
 */
export function ignoreToastInteraction(event: { target: EventTarget | null; detail?: { originalEvent?: Event }; preventDefault(): void }) {
	const press = event.detail?.originalEvent
	if ((press && toastPresses.has(press)) || (event.target instanceof Element && event.target.closest('[data-toaster]'))) event.preventDefault()
}
