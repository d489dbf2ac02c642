import type { ComponentProps } from 'react'
import { cn } from '@ui/lib/utils'

/** `container` goes to the scrolling frame around the table (a ref to watch its scrolling, say). */
export function Table({ className, container, ...props }: ComponentProps<'table'> & { container?: ComponentProps<'div'> }) {
	return (
		<div data-slot="table-container" {...container} className={cn('relative w-full overflow-x-auto', container?.className)}>
			<table data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
		</div>
	)
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
	return <thead className={cn('[&_tr]:border-b', className)} {...props} />
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
	return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
	return <tr className={cn('border-b transition-colors hover:bg-muted/50 data-[state=selected]:bg-muted', className)} {...props} />
}

export function TableHead({ className, ...props }: ComponentProps<'th'>) {
	return <th className={cn('h-10 whitespace-nowrap px-2 text-left align-middle font-medium text-muted-foreground [&:has([role=checkbox])]:pr-0', className)} {...props} />
}

export function TableCell({ className, ...props }: ComponentProps<'td'>) {
	return <td className={cn('whitespace-nowrap p-2 align-middle [&:has([role=checkbox])]:pr-0', className)} {...props} />
}
