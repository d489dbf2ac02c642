import { useState, type ReactNode } from 'react'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { useTranslation } from '@ui/i18n'

export type DetailRow = { label: string; value: ReactNode }

/** A task's fields in a dialog, opened from its row (docs/specification/tasks.md#the-task-lists). */
export function TaskDetailsButton({ title, rows }: { title: string; rows: DetailRow[] }) {
	const { t } = useTranslation()
	const [open, setOpen] = useState(false)
	return (
		<>
			<Button variant="outline" size="sm" onClick={() => setOpen(true)}>{t('详情')}</Button>
			<Dialog open={open} onOpenChange={setOpen}>
				<DialogContent className="max-h-[85vh] overflow-y-auto sm:max-w-2xl">
					<DialogHeader>
						<DialogTitle>{t(title)}</DialogTitle>
					</DialogHeader>
					<dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm" data-testid="task-details">
						{rows.map((row) => (
							<div key={row.label} className="contents">
								<dt className="text-muted-foreground">{t(row.label)}</dt>
								<dd className="min-w-0 break-words">{row.value}</dd>
							</div>
						))}
					</dl>
				</DialogContent>
			</Dialog>
		</>
	)
}
