import { PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react'
import type { PlanView } from '@shared/plan'
import { type DataColumn, DataTable } from '@ui/components/data-table/data-table'
import { EmptyState } from '@ui/components/data-table/empty-state'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { useTranslation } from '@ui/i18n'
import { renderQuota } from '@ui/lib/format'
import { useStatus } from '@ui/lib/status'
import { describeLength } from '@ui/features/plans/plan-display'

type PlanAdminTableProps = {
	plans: PlanView[]
	onAdd: () => void
	onEdit: (plan: PlanView) => void
	onDelete: (plan: PlanView) => void
}

/** The super admin's list of every plan, on sale or not, with its windows and actions. */
export function PlanAdminTable({ plans, onAdd, onEdit, onDelete }: PlanAdminTableProps) {
	const { t } = useTranslation()
	const status = useStatus()
	const length = (seconds: number) => {
		const described = describeLength(seconds)
		return t(described.text, described.values)
	}
	const windows = (plan: PlanView) => plan.windows.map((window) => `${length(window.seconds)}: ${renderQuota(window.quota, status)}`).join(' · ')
	const columns: DataColumn<PlanView>[] = [
		{ id: 'id', header: 'ID', cell: ({ row: { original: plan } }) => plan.id },
		{ id: 'name', header: '名称', cell: ({ row: { original: plan } }) => <span className="font-medium">{plan.name}</span> },
		{ id: 'status', header: '状态', cell: ({ row: { original: plan } }) => (plan.enabled ? <Badge variant="green">{t('在售')}</Badge> : <Badge variant="grey">{t('已停售')}</Badge>) },
		{ id: 'price', header: '价格', cell: ({ row: { original: plan } }) => renderQuota(plan.price, status) },
		{ id: 'duration', header: '有效期', meta: { hideOnMobile: true }, cell: ({ row: { original: plan } }) => length(plan.duration_seconds) },
		{ id: 'windows', header: '用量窗口', meta: { hideOnMobile: true }, cell: ({ row: { original: plan } }) => windows(plan) },
		{ id: 'models', header: '适用模型', meta: { hideOnMobile: true, fold: true }, cell: ({ row: { original: plan } }) => (plan.models.length > 0 ? plan.models.join(', ') : t('全部')) },
		{ id: 'group', header: '分组', meta: { hideOnMobile: true, fold: true }, cell: ({ row: { original: plan } }) => plan.group || '-' },
		{
			id: 'actions', header: '操作', meta: { stickyEnd: true }, cell: ({ row: { original: plan } }) => (
				<div className="flex items-center gap-1">
					<Button variant="outline" size="sm" title={t('编辑')} aria-label={t('编辑')} onClick={() => onEdit(plan)}><PencilIcon /></Button>
					<Button variant="outline" size="sm" className="text-destructive hover:text-destructive" title={t('删除')} aria-label={t('删除')} onClick={() => onDelete(plan)}><Trash2Icon /></Button>
				</div>
			),
		},
	]
	return (
		<DataTable
			columns={columns}
			rows={plans}
			rowKey={(plan) => plan.id}
			phoneSummary={(plan) => (
				<>
					<span className="basis-full font-medium text-foreground">{plan.name}</span>
					<span className="tabular-nums">{renderQuota(plan.price, status)}</span>
					<span>{windows(plan)}</span>
				</>
			)}
			empty={<EmptyState filtered={false} nothing='还没有套餐：添加一个，让用户按周期购买用量' noMatch='' action={<Button onClick={onAdd}><PlusIcon />{t('添加套餐')}</Button>} />}
		/>
	)
}
