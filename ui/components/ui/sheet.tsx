import { XIcon } from 'lucide-react'
import { Dialog as SheetPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { useTranslation } from '@ui/i18n'
import { cn, ignoreToastInteraction } from '@ui/lib/utils'

/** A drawer: the editor panels of the token, user and channel pages. */
export const Sheet = SheetPrimitive.Root
export const SheetTrigger = SheetPrimitive.Trigger
export const SheetClose = SheetPrimitive.Close

type SheetContentProps = ComponentProps<typeof SheetPrimitive.Content> & { side?: 'right' | 'left' }

export function SheetContent({ className, children, side = 'right', ...props }: SheetContentProps) {
	const { t } = useTranslation()
	return (
		<SheetPrimitive.Portal>
			<SheetPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=closed]:animate-out data-[state=closed]:fade-out-0" />
			<SheetPrimitive.Content
				data-slot="sheet-content"
				className={cn(
					'fixed inset-y-0 z-50 flex h-full w-full flex-col gap-4 bg-background shadow-lg transition ease-in-out sm:max-w-lg data-[state=open]:animate-in data-[state=closed]:animate-out',
					side === 'right' ? 'right-0 border-l data-[state=open]:slide-in-from-right data-[state=closed]:slide-out-to-right' : 'left-0 border-r data-[state=open]:slide-in-from-left data-[state=closed]:slide-out-to-left',
					className,
				)}
				onInteractOutside={ignoreToastInteraction}
				{...props}
			>
				{children}
				<SheetPrimitive.Close className="absolute top-4 right-4 rounded-xs opacity-70 transition-opacity hover:opacity-100 focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4">
					<XIcon />
					<span className="sr-only">{t('关闭')}</span>
				</SheetPrimitive.Close>
			</SheetPrimitive.Content>
		</SheetPrimitive.Portal>
	)
}

export function SheetHeader({ className, ...props }: ComponentProps<'div'>) {
	return <div className={cn('flex flex-col gap-1.5 border-b p-4 pr-10', className)} {...props} />
}

/** The scrolling middle of a drawer, between header and footer. */
export function SheetBody({ className, ...props }: ComponentProps<'div'>) {
	return <div className={cn('flex flex-1 flex-col gap-4 overflow-y-auto px-4', className)} {...props} />
}

export function SheetFooter({ className, ...props }: ComponentProps<'div'>) {
	return <div className={cn('mt-auto flex flex-col-reverse gap-2 border-t p-4 sm:flex-row sm:justify-end', className)} {...props} />
}

export function SheetTitle({ className, ...props }: ComponentProps<typeof SheetPrimitive.Title>) {
	return <SheetPrimitive.Title className={cn('font-semibold text-foreground', className)} {...props} />
}

export function SheetDescription({ className, ...props }: ComponentProps<typeof SheetPrimitive.Description>) {
	return <SheetPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />
}
