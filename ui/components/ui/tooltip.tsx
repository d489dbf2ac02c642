import { Tooltip as TooltipPrimitive } from 'radix-ui'
import type { ComponentProps, ReactNode } from 'react'
import { cn } from '@ui/lib/utils'

export const TooltipProvider = TooltipPrimitive.Provider
export const TooltipRoot = TooltipPrimitive.Root
export const TooltipTrigger = TooltipPrimitive.Trigger

export function TooltipContent({ className, sideOffset = 4, ...props }: ComponentProps<typeof TooltipPrimitive.Content>) {
	return (
		<TooltipPrimitive.Portal>
			<TooltipPrimitive.Content
				data-slot="tooltip-content"
				sideOffset={sideOffset}
				className={cn('z-50 max-w-xs rounded-md bg-foreground px-3 py-1.5 text-xs text-background animate-in fade-in-0', className)}
				{...props}
			/>
		</TooltipPrimitive.Portal>
	)
}

/** The common case: one trigger element, one text. The root layout provides TooltipProvider. */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
	return (
		<TooltipRoot>
			<TooltipTrigger asChild>{children}</TooltipTrigger>
			<TooltipContent>{content}</TooltipContent>
		</TooltipRoot>
	)
}
