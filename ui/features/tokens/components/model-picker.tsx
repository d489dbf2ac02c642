import { XIcon } from 'lucide-react'
import { useState } from 'react'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { Checkbox } from '@ui/components/ui/checkbox'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { useTranslation } from '@ui/i18n'

type ModelPickerProps = {
	/** The models the user's group can reach (`GET /api/user/models`). */
	models: string[]
	selected: string[]
	onChange: (selected: string[]) => void
}

/**
 * Several models out of a filtered list. A selected model no longer offered stays listed so it can be
 * removed; a name typed in the filter can be added even when it is not offered (yet).
 */
export function ModelPicker({ models, selected, onChange }: ModelPickerProps) {
	const { t } = useTranslation()
	const [filter, setFilter] = useState('')
	const wanted = filter.trim()
	const offered = [...new Set([...selected, ...models])].filter((model) => model.toLowerCase().includes(wanted.toLowerCase()))
	const canAdd = wanted !== '' && !selected.includes(wanted) && !models.includes(wanted)

	function toggle(model: string) {
		onChange(selected.includes(model) ? selected.filter((name) => name !== model) : [...selected, model])
	}

	function addTyped() {
		onChange([...selected, wanted])
		setFilter('')
	}

	return (
		<div className="flex flex-col gap-2 rounded-md border p-2" data-testid="model-picker">
			{selected.length > 0 && (
				<ul aria-label={t('已选模型')} className="flex flex-wrap gap-1">
					{selected.map((model) => (
						<li key={model}>
							<Badge variant="secondary" className="gap-0.5 pr-0.5">
								{model}
								<button type="button" aria-label={t('移除 {name}', { name: model })} className="rounded-sm opacity-60 hover:opacity-100" onClick={() => toggle(model)}>
									<XIcon />
								</button>
							</Badge>
						</li>
					))}
				</ul>
			)}
			<div className="flex gap-2">
				<Input
					value={filter}
					aria-label={t('筛选模型')}
					placeholder={t('筛选或输入模型名称')}
					className="h-8"
					onChange={(event) => setFilter(event.target.value)}
					onKeyDown={(event) => {
						if (event.key !== 'Enter') return
						event.preventDefault()
						if (canAdd) addTyped()
					}}
				/>
				{canAdd && (
					<Button type="button" size="sm" variant="secondary" onClick={addTyped}>
						{t('添加')}
					</Button>
				)}
			</div>
			<div className="flex max-h-48 flex-col gap-1 overflow-y-auto">
				{offered.length === 0 && <p className="px-1 py-2 text-xs text-muted-foreground">{t('没有可选的模型')}</p>}
				{offered.map((model) => (
					<Label key={model} className="cursor-pointer rounded-sm px-1 py-1 font-normal hover:bg-accent">
						<Checkbox checked={selected.includes(model)} onCheckedChange={() => toggle(model)} />
						<span className="break-all">{model}</span>
					</Label>
				))}
			</div>
		</div>
	)
}
