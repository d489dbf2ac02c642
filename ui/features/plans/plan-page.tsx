import { useState } from 'react'
import { useLoaderData, useRevalidator } from 'react-router'
import { PlusIcon } from 'lucide-react'
import { Button } from '@ui/components/ui/button'
import { ConfirmDialog } from '@ui/components/ui/confirm-dialog'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'
import { isRoot } from '@ui/lib/session'
import { deletePlan, type PlanView } from '@ui/features/plans/api'
import { PlanAdminTable } from '@ui/features/plans/components/plan-admin-table'
import { PlanCard } from '@ui/features/plans/components/plan-card'
import { type PlanDrawerTarget, PlanDrawer } from '@ui/features/plans/components/plan-drawer'
import { SubscriptionCard } from '@ui/features/plans/components/subscription-card'
import type { PlanPageData } from '@ui/features/plans/plan-route'

/**
 * Plans: the caller's subscriptions with a meter per usage window (use, what is left, when it
 * resets), the plans on sale to buy from the wallet or online, and for the super admin the list of
 * every plan with its editor.
 */
export function PlanPage() {
	const { t } = useTranslation()
	const { user, plans, subscriptions, failure } = useLoaderData() as PlanPageData
	const revalidator = useRevalidator()
	const [drawer, setDrawer] = useState<PlanDrawerTarget | null>(null)
	const [deleting, setDeleting] = useState<PlanView | null>(null)
	const [confirmingDelete, setConfirmingDelete] = useState(false)
	const root = isRoot(user)
	const onSale = plans.filter((plan) => plan.enabled)
	const owned = new Set(subscriptions.filter((subscription) => subscription.active).map((subscription) => subscription.plan_id))

	async function confirmDelete() {
		if (!deleting) return
		setConfirmingDelete(false)
		if (await callApi(t, deletePlan(browserApi, deleting.id), '套餐已删除')) revalidator.revalidate()
	}

	return (
		<div className="flex flex-col gap-6">
			<h1 className="text-xl font-semibold">{t('套餐')}</h1>
			{failure && <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">{t(failure)}</p>}
			<section className="flex flex-col gap-3" aria-labelledby="my-subscriptions">
				<h2 id="my-subscriptions" className="font-semibold">{t('我的订阅')}</h2>
				{subscriptions.length === 0 ? (
					<p className="text-sm text-muted-foreground" data-testid="no-subscriptions">{t('还没有订阅：购买下面的套餐后，调用先由套餐支付，用完再从钱包扣费')}</p>
				) : (
					<div className="grid gap-4 lg:grid-cols-2">
						{subscriptions.map((subscription) => <SubscriptionCard key={subscription.id} subscription={subscription} />)}
					</div>
				)}
			</section>
			<section className="flex flex-col gap-3" aria-labelledby="plans-on-sale">
				<h2 id="plans-on-sale" className="font-semibold">{t('购买套餐')}</h2>
				{onSale.length === 0 ? (
					<p className="text-sm text-muted-foreground">{t('暂无在售套餐')}</p>
				) : (
					<div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
						{onSale.map((plan) => <PlanCard key={plan.id} plan={plan} balance={user.quota} owned={owned.has(plan.id)} onBought={() => revalidator.revalidate()} />)}
					</div>
				)}
			</section>
			{root ? (
				<section className="flex flex-col gap-3" aria-labelledby="plan-administration">
					<div className="flex flex-wrap items-center justify-between gap-2">
						<h2 id="plan-administration" className="font-semibold">{t('管理套餐')}</h2>
						<Button type="button" onClick={() => setDrawer({ kind: 'create' })}><PlusIcon />{t('添加套餐')}</Button>
					</div>
					<PlanAdminTable
						plans={plans}
						onAdd={() => setDrawer({ kind: 'create' })}
						onEdit={(plan) => setDrawer({ kind: 'edit', plan })}
						onDelete={(plan) => {
							setDeleting(plan)
							setConfirmingDelete(true)
						}}
					/>
				</section>
			) : null}
			<PlanDrawer target={drawer} onClose={() => setDrawer(null)} onSaved={() => {
				setDrawer(null)
				revalidator.revalidate()
			}} />
			<ConfirmDialog
				open={confirmingDelete}
				onOpenChange={setConfirmingDelete}
				title={t('确定删除套餐 {name} 吗？', { name: deleting?.name ?? '' })}
				description={t('删除后不再出售，已购买的订阅照常有效')}
				confirmText={t('删除')}
				destructive
				onConfirm={() => void confirmDelete()}
			/>
		</div>
	)
}
