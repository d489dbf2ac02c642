import { AlertDialog as AlertDialogPrimitive } from 'radix-ui'
import type { ReactNode } from 'react'
import { buttonVariants } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

type ConfirmDialogProps = {
	open: boolean
	onOpenChange: (open: boolean) => void
	title: ReactNode
	description?: ReactNode
	/** Defaults to 确定. */
	confirmText?: string
	destructive?: boolean
	onConfirm: () => void
	children?: ReactNode
}

/** The confirmation every destructive or role-changing action asks for first. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmText, destructive, onConfirm, children }: ConfirmDialogProps) {
	const { t } = useTranslation()
	return (
		<AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
			<AlertDialogPrimitive.Portal>
				<AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0" />
				<AlertDialogPrimitive.Content className="fixed top-1/2 left-1/2 z-50 grid w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 rounded-lg border bg-background p-6 shadow-lg sm:max-w-md data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95">
					<div className="flex flex-col gap-2">
						<AlertDialogPrimitive.Title className="text-lg font-semibold">{title}</AlertDialogPrimitive.Title>
						{description ? <AlertDialogPrimitive.Description className="text-sm text-muted-foreground">{description}</AlertDialogPrimitive.Description> : <AlertDialogPrimitive.Description className="sr-only">{title}</AlertDialogPrimitive.Description>}
					</div>
					{children}
					<div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
						<AlertDialogPrimitive.Cancel className={buttonVariants({ variant: 'outline' })}>{t('取消')}</AlertDialogPrimitive.Cancel>
						<AlertDialogPrimitive.Action className={cn(buttonVariants({ variant: destructive ? 'destructive' : 'default' }))} onClick={onConfirm}>
							{confirmText ?? t('确定')}
						</AlertDialogPrimitive.Action>
					</div>
				</AlertDialogPrimitive.Content>
			</AlertDialogPrimitive.Portal>
		</AlertDialogPrimitive.Root>
	)
}
