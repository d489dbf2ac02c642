import { CopyIcon, PlusIcon, SearchIcon } from 'lucide-react'
import type { FormEvent, ReactNode } from 'react'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'

type SearchToolbarProps = {
	/** Changes with the URL's search values, so that back and forward refill the fields. */
	formKey: string
	/** The search fields (named inputs); `onSearch` receives the form's data. */
	fields: ReactNode
	onSearch: (form: FormData) => void
	/** The label of the add button and of the copy-selected button. */
	addLabel: string
	copyLabel: string
	onAdd: () => void
	onCopySelected: () => void
}

/** A list's toolbar: search fields with their button, then add and copy-selected. */
export function SearchToolbar({ formKey, fields, onSearch, addLabel, copyLabel, onAdd, onCopySelected }: SearchToolbarProps) {
	const { t } = useTranslation()

	function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		onSearch(new FormData(event.currentTarget))
	}

	return (
		<div className="flex flex-wrap items-center justify-between gap-2">
			<form key={formKey} role="search" onSubmit={submit} className="flex flex-wrap items-center gap-2 max-[600px]:w-full">
				{fields}
				<Button type="submit" variant="secondary">
					<SearchIcon />
					{t('搜索')}
				</Button>
			</form>
			<div className="flex flex-wrap gap-2">
				<Button onClick={onAdd}>
					<PlusIcon />
					{addLabel}
				</Button>
				<Button variant="outline" onClick={onCopySelected}>
					<CopyIcon />
					{copyLabel}
				</Button>
			</div>
		</div>
	)
}

/** A search field's trimmed text. */
export const searchText = (form: FormData, name: string) => String(form.get(name) ?? '').trim()
