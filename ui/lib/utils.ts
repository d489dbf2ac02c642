import { type ClassValue, clsx } from 'clsx'
import { twMerge } from 'tailwind-merge'

export function cn(...inputs: ClassValue[]) {
	return twMerge(clsx(inputs))
}

/**
 * For dialogs and drawers: a click on a toast (closing it) is not a click outside the dialog, which
 * would close the dialog too. Pass as `onInteractOutside`.
 */
export function ignoreToastInteraction(event: { target: EventTarget | null; preventDefault(): void }) {
	if (event.target instanceof Element && event.target.closest('[data-toaster]')) event.preventDefault()
}
