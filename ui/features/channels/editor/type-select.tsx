import { CheckIcon, ChevronsUpDownIcon } from 'lucide-react'
import { type KeyboardEvent, useId, useState } from 'react'
import type { ChannelTypeInfo } from '@shared/channel'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Popover, PopoverContent, PopoverTrigger } from '@ui/components/ui/popover'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

type TypeSelectProps = {
	/** The trigger's id: the field label's target. */
	id: string
	types: readonly ChannelTypeInfo[]
	value: number
	onChange: (type: number) => void
}

/** Matches a type by its name (in the reader's language) or its number. */
const matches = (info: ChannelTypeInfo, search: string) => {
	const needle = search.trim().toLowerCase()
	return needle === '' || info.name.toLowerCase().includes(needle) || String(info.type) === needle
}

/**
 * The channel type: some thirty entries, so a list that a typed word narrows down (arrows and Enter
 * choose from the keyboard). The trigger shows the current type's name.
 */
export function TypeSelect({ id, types, value, onChange }: TypeSelectProps) {
	const { t } = useTranslation()
	const [open, setOpen] = useState(false)
	const [search, setSearch] = useState('')
	const [active, setActive] = useState(0)
	const listId = useId()
	const shown = types.filter((info) => matches(info, search))
	const current = types.find((info) => info.type === value)

	function changeOpen(next: boolean) {
		setOpen(next)
		setSearch('')
		setActive(Math.max(0, types.findIndex((info) => info.type === value)))
	}

	function choose(info: ChannelTypeInfo) {
		onChange(info.type)
		changeOpen(false)
	}

	function navigate(event: KeyboardEvent<HTMLInputElement>) {
		if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
			event.preventDefault()
			const step = event.key === 'ArrowDown' ? 1 : -1
			setActive((index) => (shown.length === 0 ? 0 : (index + step + shown.length) % shown.length))
		} else if (event.key === 'Enter') {
			event.preventDefault()
			const chosen = shown[active]
			if (chosen) choose(chosen)
		}
	}

	return (
		<Popover open={open} onOpenChange={changeOpen}>
			<PopoverTrigger asChild>
				<Button id={id} type="button" variant="outline" role="combobox" aria-expanded={open} aria-controls={listId} className="w-full justify-between font-normal">
					<span className="truncate">{current?.name ?? String(value)}</span>
					<ChevronsUpDownIcon className="opacity-50" />
				</Button>
			</PopoverTrigger>
			<PopoverContent align="start" className="flex w-(--radix-popover-trigger-width) min-w-64 max-w-[calc(100vw-2rem)] flex-col gap-2 p-2">
				<Input
					autoFocus
					aria-label={t('搜索渠道类型')}
					aria-controls={listId}
					aria-activedescendant={shown[active] ? `${listId}-${shown[active].type}` : undefined}
					placeholder={t('搜索渠道类型')}
					value={search}
					onChange={(event) => {
						setSearch(event.target.value)
						setActive(0)
					}}
					onKeyDown={navigate}
				/>
				<ul id={listId} role="listbox" aria-label={t('渠道类型')} className="max-h-72 overflow-y-auto">
					{shown.map((info, index) => (
						<li
							key={info.type}
							id={`${listId}-${info.type}`}
							role="option"
							aria-selected={info.type === value}
							className={cn('flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm hover:bg-accent', index === active && 'bg-accent')}
							onMouseEnter={() => setActive(index)}
							onClick={() => choose(info)}
						>
							<CheckIcon className={cn('size-4 shrink-0', info.type !== value && 'invisible')} />
							<span className="flex-1">{info.name}</span>
							<span aria-hidden className="text-xs text-muted-foreground tabular-nums">{info.type}</span>
						</li>
					))}
					{shown.length === 0 && <li className="px-2 py-1.5 text-sm text-muted-foreground">{t('暂无数据')}</li>}
				</ul>
			</PopoverContent>
		</Popover>
	)
}
