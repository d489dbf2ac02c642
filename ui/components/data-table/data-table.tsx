import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, ChevronUpIcon } from 'lucide-react'
import { Fragment, type ReactNode, useState } from 'react'
import { PAGE_SIZE_OPTIONS } from '@ui/components/data-table/url-state'
import { Button } from '@ui/components/ui/button'
import { Checkbox } from '@ui/components/ui/checkbox'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@ui/components/ui/select'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@ui/components/ui/table'
import { useTranslation } from '@ui/i18n'
import { cn } from '@ui/lib/utils'

export type Column<Row> = {
	/** Stable key; also the column's test id (`data-column`). */
	key: string
	/** A zh source string, translated by the table. */
	header: string
	cell: (row: Row) => ReactNode
	className?: string
	/** Hidden below 600 px, where the table would not fit. */
	hideOnMobile?: boolean
}

type DataTableProps<Row> = {
	columns: Column<Row>[]
	rows: Row[]
	rowKey: (row: Row) => string | number
	/** Selection by row key; omit for a table without checkboxes. */
	selected?: Set<string | number>
	onSelectedChange?: (selected: Set<string | number>) => void
	/** A detail panel under a row, toggled by a chevron in the first column. */
	renderExpanded?: (row: Row) => ReactNode
	/** Rows drawn differently (e.g. tag rows of the channel list). */
	rowClassName?: (row: Row) => string | undefined
	empty?: string
	pagination?: PaginationProps
}

export function DataTable<Row>({ columns, rows, rowKey, selected, onSelectedChange, renderExpanded, rowClassName, empty, pagination }: DataTableProps<Row>) {
	const { t } = useTranslation()
	const [expanded, setExpanded] = useState<Set<string | number>>(() => new Set())
	const keys = rows.map(rowKey)
	const allSelected = selected !== undefined && keys.length > 0 && keys.every((key) => selected.has(key))
	const someSelected = selected !== undefined && keys.some((key) => selected.has(key))
	const columnCount = columns.length + (selected ? 1 : 0) + (renderExpanded ? 1 : 0)

	function toggle(set: Set<string | number>, key: string | number) {
		const next = new Set(set)
		if (next.has(key)) next.delete(key)
		else next.add(key)
		return next
	}

	return (
		<div className="flex flex-col gap-3">
			<div className="rounded-md border">
				<Table>
					<TableHeader>
						<TableRow>
							{renderExpanded && <TableHead className="w-8" />}
							{selected && (
								<TableHead className="w-8">
									<Checkbox
										aria-label={t('全选')}
										checked={allSelected ? true : someSelected ? 'indeterminate' : false}
										onCheckedChange={(checked) => onSelectedChange?.(checked === true ? new Set([...selected, ...keys]) : new Set([...selected].filter((key) => !keys.includes(key))))}
									/>
								</TableHead>
							)}
							{columns.map((column) => (
								<TableHead key={column.key} data-column={column.key} className={cn(column.hideOnMobile && 'max-[600px]:hidden', column.className)}>
									{t(column.header)}
								</TableHead>
							))}
						</TableRow>
					</TableHeader>
					<TableBody>
						{rows.length === 0 && (
							<TableRow>
								<TableCell colSpan={columnCount} className="h-24 text-center text-muted-foreground">
									{t(empty ?? '暂无数据')}
								</TableCell>
							</TableRow>
						)}
						{rows.map((row) => {
							const key = rowKey(row)
							const isExpanded = expanded.has(key)
							return (
								<Fragment key={key}>
									<TableRow data-state={selected?.has(key) ? 'selected' : undefined} data-row-key={key} className={rowClassName?.(row)}>
										{renderExpanded && (
											<TableCell>
												<Button variant="ghost" size="icon" className="size-7" aria-label={t(isExpanded ? '收起' : '展开')} aria-expanded={isExpanded} onClick={() => setExpanded(toggle(expanded, key))}>
													{isExpanded ? <ChevronUpIcon /> : <ChevronDownIcon />}
												</Button>
											</TableCell>
										)}
										{selected && (
											<TableCell>
												<Checkbox aria-label={t('选择')} checked={selected.has(key)} onCheckedChange={() => onSelectedChange?.(toggle(selected, key))} />
											</TableCell>
										)}
										{columns.map((column) => (
											<TableCell key={column.key} data-column={column.key} className={cn(column.hideOnMobile && 'max-[600px]:hidden', column.className)}>
												{column.cell(row)}
											</TableCell>
										))}
									</TableRow>
									{renderExpanded && isExpanded && (
										<TableRow className="hover:bg-transparent">
											<TableCell colSpan={columnCount} className="whitespace-normal bg-muted/30">
												{renderExpanded(row)}
											</TableCell>
										</TableRow>
									)}
								</Fragment>
							)
						})}
					</TableBody>
				</Table>
			</div>
			{pagination && <Pagination {...pagination} />}
		</div>
	)
}

export type PaginationProps = {
	page: number
	pageSize: number
	total: number
	onPageChange: (page: number) => void
	onPageSizeChange: (pageSize: number) => void
}

/** Page buttons and the page-size choice (10/20/50/100, remembered per table by useTableUrlState). */
export function Pagination({ page, pageSize, total, onPageChange, onPageSizeChange }: PaginationProps) {
	const { t } = useTranslation()
	const pages = Math.max(1, Math.ceil(total / pageSize))
	return (
		<nav aria-label={t('分页')} className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
			<span>{t('共 {total} 条', { total })}</span>
			<div className="flex items-center gap-2">
				<Select value={String(pageSize)} onValueChange={(value) => onPageSizeChange(Number(value))}>
					<SelectTrigger className="h-8 w-28" aria-label={t('每页条数')}>
						<SelectValue />
					</SelectTrigger>
					<SelectContent>
						{PAGE_SIZE_OPTIONS.map((size) => (
							<SelectItem key={size} value={String(size)}>
								{t('{size} 条/页', { size })}
							</SelectItem>
						))}
					</SelectContent>
				</Select>
				<Button variant="outline" size="icon" className="size-8" aria-label={t('上一页')} disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
					<ChevronLeftIcon />
				</Button>
				<span className="tabular-nums">
					{page} / {pages}
				</span>
				<Button variant="outline" size="icon" className="size-8" aria-label={t('下一页')} disabled={page >= pages} onClick={() => onPageChange(page + 1)}>
					<ChevronRightIcon />
				</Button>
			</div>
		</nav>
	)
}
