import { CheckIcon, ChevronDownIcon, XIcon } from 'lucide-react'
import { useId, useState } from 'react'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Popover, PopoverContent, PopoverTrigger } from '@ui/components/ui/popover'
import { useTranslation } from '@ui/i18n'
import { fieldErrorId } from '@ui/lib/use-form-problem'
import { cn } from '@ui/lib/utils'

/** Long model lists are cut; the search narrows them down. */
const MAX_LISTED_OPTIONS = 200

type MultiSelectProps = {
	/** The chooser button's id (a label's target); with `invalid`, the button names the message under it. */
	id?: string
	/** Names the chooser button and the chips' list for assistive technology (translated). */
	label: string
	values: string[]
	options: string[]
	onChange: (values: string[]) => void
	placeholder: string
	invalid?: boolean
}

/** Chosen values as removable chips, and a searchable list to toggle values in and out. */
export function MultiSelect({ id, label, values, options, onChange, placeholder, invalid }: MultiSelectProps) {
	const { t } = useTranslation()
	const [open, setOpen] = useState(false)
	const [search, setSearch] = useState('')
	const listId = useId()
	const allOptions = [...new Set([...values, ...options])]
	const matching = allOptions.filter((option) => option.toLowerCase().includes(search.trim().toLowerCase()))

	function changeOpen(next: boolean) {
		setOpen(next)
		if (!next) setSearch('')
	}

	function toggle(option: string) {
		onChange(values.includes(option) ? values.filter((value) => value !== option) : [...values, option])
	}

	return (
		<div className={cn('flex flex-col gap-2 rounded-md border p-2', invalid && 'border-destructive')}>
			{values.length > 0 ? (
				<ul aria-label={label} className="flex max-h-48 flex-wrap gap-1 overflow-y-auto">
					{values.map((value) => (
						<li key={value}>
							<Badge variant="secondary" className="max-w-full gap-0.5 pr-0.5">
								<span className="truncate">{value}</span>
								<button type="button" aria-label={t('移除 {name}', { name: value })} className="rounded-sm p-0.5 opacity-70 hover:bg-background/60 hover:opacity-100" onClick={() => toggle(value)}>
									<XIcon />
								</button>
							</Badge>
						</li>
					))}
				</ul>
			) : (
				<p className="px-1 text-sm text-muted-foreground">{placeholder}</p>
			)}
			<Popover open={open} onOpenChange={changeOpen}>
				<PopoverTrigger asChild>
					<Button id={id} type="button" variant="outline" size="sm" className="w-fit" aria-label={t('选择{name}', { name: label })} aria-invalid={invalid || undefined} aria-describedby={invalid && id ? fieldErrorId(id) : undefined}>
						{t('选择')}
						<ChevronDownIcon />
					</Button>
				</PopoverTrigger>
				<PopoverContent align="start" className="flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2 p-2">
					<Input aria-label={t('搜索')} aria-controls={listId} placeholder={t('搜索')} value={search} onChange={(event) => setSearch(event.target.value)} />
					<ul id={listId} aria-label={label} aria-multiselectable="true" role="listbox" className="max-h-64 overflow-y-auto">
						{matching.slice(0, MAX_LISTED_OPTIONS).map((option) => {
							const selected = values.includes(option)
							return (
								<li
									key={option}
									role="option"
									aria-selected={selected}
									tabIndex={0}
									className="flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm break-all outline-none hover:bg-accent focus-visible:bg-accent"
									onClick={() => toggle(option)}
									onKeyDown={(event) => {
										if (event.key !== 'Enter' && event.key !== ' ') return
										event.preventDefault()
										toggle(option)
									}}
								>
									<CheckIcon className={cn('size-4 shrink-0', !selected && 'invisible')} />
									{option}
								</li>
							)
						})}
						{matching.length === 0 && <li className="px-2 py-1.5 text-sm text-muted-foreground">{t('暂无数据')}</li>}
					</ul>
					{matching.length > MAX_LISTED_OPTIONS && (
						<p className="px-2 text-xs text-muted-foreground">{t('仅显示前 {count} 项，请搜索', { count: MAX_LISTED_OPTIONS })}</p>
					)}
				</PopoverContent>
			</Popover>
		</div>
	)
}
