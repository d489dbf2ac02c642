/** What the personal tab's dialogs share: a titled dialog, its cancel/submit footer, and a call that closes it and reloads the page's data. */
import { type ReactNode, useState } from 'react'
import { useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { useTranslation } from '@ui/i18n'
import type { Envelope } from '@ui/lib/api'
import { callApi } from '@ui/lib/call-api'

type PersonalDialogProps = { open: boolean; onOpenChange: (open: boolean) => void; title: string; description: ReactNode; children: ReactNode }

export function PersonalDialog({ open, onOpenChange, title, description, children }: PersonalDialogProps) {
	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent>
				<DialogHeader>
					<DialogTitle>{title}</DialogTitle>
					<DialogDescription>{description}</DialogDescription>
				</DialogHeader>
				{children}
			</DialogContent>
		</Dialog>
	)
}

export function CancelOrSubmit({ onCancel, submitting, label }: { onCancel: () => void; submitting: boolean; label: string }) {
	const { t } = useTranslation()
	return (
		<DialogFooter>
			<Button type="button" variant="outline" onClick={onCancel}>
				{t('取消')}
			</Button>
			<Button type="submit" disabled={submitting}>
				{label}
			</Button>
		</DialogFooter>
	)
}

/** Runs the dialog's call (`submitting` meanwhile); on success, says so, closes the dialog and reloads the page's data. */
export function useDialogCall(onOpenChange: (open: boolean) => void) {
	const { t } = useTranslation()
	const revalidator = useRevalidator()
	const [submitting, setSubmitting] = useState(false)
	async function run(call: Promise<Envelope<unknown>>, success: string): Promise<boolean> {
		setSubmitting(true)
		const envelope = await callApi(t, call, success)
		setSubmitting(false)
		if (!envelope) return false
		onOpenChange(false)
		await revalidator.revalidate()
		return true
	}
	return { submitting, run }
}
