import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from '@ui/lib/utils'

/** Tags. The colours are the specification's tiers (green, lime, yellow, orange, red, blue, grey). */
export const badgeVariants = cva(
	'inline-flex w-fit shrink-0 items-center justify-center gap-1 whitespace-nowrap rounded-md border px-2 py-0.5 text-xs font-medium [&>svg]:size-3',
	{
		variants: {
			variant: {
				default: 'border-transparent bg-primary text-primary-foreground',
				secondary: 'border-transparent bg-secondary text-secondary-foreground',
				outline: 'text-foreground',
				destructive: 'border-transparent bg-destructive text-white',
				green: 'border-transparent bg-emerald-100 text-emerald-800 dark:bg-emerald-500/20 dark:text-emerald-300',
				lime: 'border-transparent bg-lime-100 text-lime-800 dark:bg-lime-500/20 dark:text-lime-300',
				yellow: 'border-transparent bg-yellow-100 text-yellow-800 dark:bg-yellow-500/20 dark:text-yellow-300',
				orange: 'border-transparent bg-orange-100 text-orange-800 dark:bg-orange-500/20 dark:text-orange-300',
				red: 'border-transparent bg-red-100 text-red-800 dark:bg-red-500/20 dark:text-red-300',
				blue: 'border-transparent bg-sky-100 text-sky-800 dark:bg-sky-500/20 dark:text-sky-300',
				purple: 'border-transparent bg-violet-100 text-violet-800 dark:bg-violet-500/20 dark:text-violet-300',
				grey: 'border-transparent bg-muted text-muted-foreground',
			},
		},
		defaultVariants: { variant: 'default' },
	},
)

export type BadgeVariant = NonNullable<VariantProps<typeof badgeVariants>['variant']>

export function Badge({ className, variant, ...props }: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
	return <span data-slot="badge" className={cn(badgeVariants({ variant }), className)} {...props} />
}
