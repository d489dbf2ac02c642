import { EllipsisIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@ui/components/ui/dropdown-menu'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

/** One action of a table row; `label` is a zh source string. */
export type RowAction = {
	label: string
	icon?: ReactNode
	/** A page to open instead of a callback. */
	to?: string
	onSelect?: () => void
	destructive?: boolean
	disabled?: boolean
}

/** A row never shows more buttons than this; the rest go into the "more" menu. */
export const INLINE_ROW_ACTIONS = 2

type RowActionsProps = {
	/** In order of use; falsy entries (actions this row does not offer) are skipped. */
	actions: (RowAction | false | null | undefined)[]
	/** A control of its own before the buttons (a split button, say); it takes one of the inline places. */
	leading?: ReactNode
	/** Buttons shown before the menu, at most INLINE_ROW_ACTIONS (with `leading` counted). */
	inline?: number
	/** Dialogs the actions open, kept with the row. */
	children?: ReactNode
}

/**
 * A row's actions on one line: the first buttons inline, the others in a "更多操作" menu, so a row
 * keeps one height whatever the number of actions. Destructive actions end the menu after a separator.
 */
export function RowActions({ actions, leading, inline = INLINE_ROW_ACTIONS, children }: RowActionsProps) {
	const { t } = useTranslation()
	const offered = actions.filter((action): action is RowAction => Boolean(action))
	const inlineCount = Math.max(0, Math.min(inline, INLINE_ROW_ACTIONS) - (leading ? 1 : 0))
	const shown = offered.slice(0, inlineCount)
	const menu = offered.slice(shown.length)
	const firstDestructive = menu.findIndex((action) => action.destructive)
	return (
		<div className="flex items-center gap-1" data-testid="row-actions">
			{leading}
			{shown.map((action) => <InlineAction key={action.label} action={action} />)}
			{menu.length > 0 && (
				<DropdownMenu>
					<DropdownMenuTrigger asChild>
						<Button variant="ghost" size="icon" className="size-8" aria-label={t('更多操作')}>
							<EllipsisIcon />
						</Button>
					</DropdownMenuTrigger>
					<DropdownMenuContent align="end">
						{menu.map((action, index) => (
							<MenuAction key={action.label} action={action} separated={index > 0 && index === firstDestructive} />
						))}
					</DropdownMenuContent>
				</DropdownMenu>
			)}
			{children}
		</div>
	)
}

function InlineAction({ action }: { action: RowAction }) {
	const { t } = useTranslation()
	const className = cn(action.destructive && 'text-destructive hover:text-destructive')
	if (action.to) {
		return (
			<Button variant="outline" size="sm" className={className} asChild>
				<Link to={action.to}>{action.icon}{t(action.label)}</Link>
			</Button>
		)
	}
	return (
		<Button variant="outline" size="sm" className={className} disabled={action.disabled} onClick={action.onSelect}>
			{action.icon}
			{t(action.label)}
		</Button>
	)
}

function MenuAction({ action, separated }: { action: RowAction; separated: boolean }) {
	const { t } = useTranslation()
	const variant = action.destructive ? 'destructive' : 'default'
	return (
		<>
			{separated && <DropdownMenuSeparator />}
			{action.to ? (
				<DropdownMenuItem variant={variant} disabled={action.disabled} asChild>
					<Link to={action.to}>{action.icon}{t(action.label)}</Link>
				</DropdownMenuItem>
			) : (
				<DropdownMenuItem variant={variant} disabled={action.disabled} onSelect={action.onSelect}>
					{action.icon}
					{t(action.label)}
				</DropdownMenuItem>
			)}
		</>
	)
}
