import { PlusIcon, Trash2Icon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import type { UnpricedModels } from '@shared/channel'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Switch } from '@ui/components/ui/switch'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { toast } from '@ui/components/ui/toaster'
import { RATIO_TABLE_PAGE_SIZE } from '@ui/features/settings/constants'
import { AddModelDialog } from '@ui/features/settings/operation/add-model-dialog'
import { NumericCell } from '@ui/features/settings/operation/ratio-cell'
import { changedOptionsFromRows, isUnpriced, type RatioRow, rowsFromOptions, withModels } from '@ui/features/settings/operation/ratio-rows'
import { type OptionForm, optionMessages } from '@ui/features/settings/options-form'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'

/** The URL's flag for "models without a price only" (the channel editor's link sets it). */
export const UNPRICED_ONLY_PARAMETER = 'unpriced'

/**
 * Model prices as a table (docs/specification/accounts-and-settings.md#operation-tab): search, ten rows a page, an add-model dialog, and one
 * apply button that writes the rows back to the JSON options. A fixed price disables the ratio cells.
 * Models the enabled channels offer without a price get an empty row, marked, and a switch shows
 * only those: the relay refuses them until they have one.
 */
export function RatioVisualTable({ form }: { form: OptionForm }) {
	const { t } = useTranslation()
	const [searchParameters] = useSearchParams()
	const [rows, setRows] = useState(() => rowsFromOptions(form.values))
	const [search, setSearch] = useState('')
	const [page, setPage] = useState(1)
	const [adding, setAdding] = useState(false)
	const [unpricedOnly, setUnpricedOnly] = useState(searchParameters.get(UNPRICED_ONLY_PARAMETER) === 'true')

	useEffect(() => {
		let current = true
		browserApi.get<UnpricedModels>('/api/channel/unpriced_models')
			.then((envelope) => {
				if (current && envelope.success) setRows((existing) => existing && withModels(existing, envelope.data.models))
			})
			.catch(() => undefined)
		return () => {
			current = false
		}
	}, [])

	if (!rows) return <p className="text-sm text-destructive">{t('模型价格或倍率不是合法的 JSON 对象，请先在 JSON 视图中修正')}</p>

	const unpricedCount = rows.filter(isUnpriced).length
	const matching = rows.filter((row) => row.name.toLowerCase().includes(search.trim().toLowerCase()) && (!unpricedOnly || isUnpriced(row)))
	const pageCount = Math.max(1, Math.ceil(matching.length / RATIO_TABLE_PAGE_SIZE))
	const currentPage = Math.min(page, pageCount)
	const shown = matching.slice((currentPage - 1) * RATIO_TABLE_PAGE_SIZE, currentPage * RATIO_TABLE_PAGE_SIZE)

	const update = (name: string, field: keyof RatioRow) => (value: string) =>
		setRows((current) => current!.map((row) => (row.name === name ? { ...row, [field]: value } : row)))
	const remove = (name: string) => setRows((current) => current!.filter((row) => row.name !== name))

	function apply() {
		const changed = changedOptionsFromRows(rows!, form.values)
		if (Object.keys(changed).length === 0) return toast.info(t(optionMessages.nothingChanged))
		void form.save(changed)
	}

	return (
		<div className="flex flex-col gap-3" data-testid="ratio-visual-table">
			<div className="flex flex-wrap items-center gap-2">
				<Input className="w-60" placeholder={t('搜索模型名称')} aria-label={t('搜索模型名称')} value={search} onChange={(event) => {
					setSearch(event.target.value)
					setPage(1)
				}} />
				<Button type="button" variant="outline" onClick={() => setAdding(true)}>
					<PlusIcon />
					{t('添加模型')}
				</Button>
				<Button type="button" disabled={form.saving} onClick={apply}>
					{t('应用更改')}
				</Button>
				<div className="flex items-center gap-2">
					<Switch id="ratio-unpriced-only" checked={unpricedOnly} onCheckedChange={(checked) => {
						setUnpricedOnly(checked)
						setPage(1)
					}} />
					<Label htmlFor="ratio-unpriced-only">{t('只看没有价格的模型（{count}）', { count: unpricedCount })}</Label>
				</div>
			</div>
			<Table>
				<TableHeader>
					<TableRow>
						<TableHead>{t('模型名称')}</TableHead>
						<TableHead>{t('固定价格（美元/次）')}</TableHead>
						<TableHead>{t('模型倍率')}</TableHead>
						<TableHead>{t('补全倍率')}</TableHead>
						<TableHead>{t('操作')}</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{shown.length === 0 && (
						<TableRow>
							<TableCell colSpan={5} className="text-center text-muted-foreground">
								{t('暂无数据')}
							</TableCell>
						</TableRow>
					)}
					{shown.map((row) => (
						<TableRow key={row.name} data-model={row.name}>
							<TableCell className="font-mono text-xs">
								{row.name}
								{isUnpriced(row) && <Badge variant="yellow" className="ml-2 font-sans" data-testid="unpriced">{t('没有价格')}</Badge>}
							</TableCell>
							<TableCell>
								<NumericCell label={t('固定价格（美元/次）')} className="w-28" value={row.price} onChange={update(row.name, 'price')} />
							</TableCell>
							<TableCell>
								<NumericCell label={t('模型倍率')} className="w-28" value={row.ratio} disabled={row.price !== ''} onChange={update(row.name, 'ratio')} />
							</TableCell>
							<TableCell>
								<NumericCell label={t('补全倍率')} className="w-28" value={row.completionRatio} disabled={row.price !== ''} onChange={update(row.name, 'completionRatio')} />
							</TableCell>
							<TableCell>
								<Button type="button" variant="ghost" size="icon" aria-label={t('删除')} onClick={() => remove(row.name)}>
									<Trash2Icon />
								</Button>
							</TableCell>
						</TableRow>
					))}
				</TableBody>
			</Table>
			<div className="flex items-center justify-end gap-2 text-sm">
				<span data-testid="ratio-page">{t('第 {page} / {count} 页，共 {total} 个模型', { page: currentPage, count: pageCount, total: matching.length })}</span>
				<Button type="button" variant="outline" size="sm" disabled={currentPage <= 1} onClick={() => setPage(currentPage - 1)}>
					{t('上一页')}
				</Button>
				<Button type="button" variant="outline" size="sm" disabled={currentPage >= pageCount} onClick={() => setPage(currentPage + 1)}>
					{t('下一页')}
				</Button>
			</div>
			<AddModelDialog
				open={adding}
				onOpenChange={setAdding}
				existing={(name) => rows.some((row) => row.name === name)}
				onAdd={(row) => {
					setRows((current) => [row, ...current!])
					setSearch('')
					setPage(1)
				}}
			/>
		</div>
	)
}
