import { useEffect, useState } from 'react'
import type { ModelSyncDiff } from '@shared/channel'
import { Badge } from '@ui/components/ui/badge'
import { Button } from '@ui/components/ui/button'
import { Checkbox } from '@ui/components/ui/checkbox'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { toast } from '@ui/components/ui/toaster'
import { applyModelSync, checkModelSync } from '@ui/features/channels/api'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'
import { callApi } from '@ui/lib/call-api'

/** Per channel, the models ticked to add and to remove. */
type Choice = Record<number, { add: Set<string>; remove: Set<string> }>

/** New upstream models start ticked; removals are the admin's to tick, since a channel may serve a model its upstream does not list. */
const initialChoice = (diffs: ModelSyncDiff[]): Choice =>
	Object.fromEntries(diffs.map((diff) => [diff.id, { add: new Set(diff.added), remove: new Set<string>() }]))

type ModelSyncDialogProps = {
	/** One channel's id, or null for every enabled channel. */
	channelId: number | null
	open: boolean
	onOpenChange: (open: boolean) => void
}

/** Compares channels with their upstreams' model lists and applies the ticked additions and removals. */
export function ModelSyncDialog({ channelId, open, onOpenChange }: ModelSyncDialogProps) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const [diffs, setDiffs] = useState<ModelSyncDiff[] | null>(null)
	const [choice, setChoice] = useState<Choice>({})
	const [applying, setApplying] = useState(false)

	useEffect(() => {
		if (!open) return
		let current = true
		setDiffs(null)
		void callApi(t, checkModelSync(browserApi, channelId)).then((envelope) => {
			if (!current) return
			if (!envelope) return onOpenChange(false)
			setDiffs(envelope.data.channels)
			setChoice(initialChoice(envelope.data.channels))
		})
		return () => {
			current = false
		}
		// One check per opening: `t` and `onOpenChange` changing must not ask the upstreams again.
	}, [open, channelId])

	function toggle(id: number, side: 'add' | 'remove', model: string) {
		setChoice((before) => {
			const next = { add: new Set(before[id]?.add), remove: new Set(before[id]?.remove) }
			if (next[side].has(model)) next[side].delete(model)
			else next[side].add(model)
			return { ...before, [id]: next }
		})
	}

	const chosen = (diffs ?? []).filter((diff) => (choice[diff.id]?.add.size ?? 0) + (choice[diff.id]?.remove.size ?? 0) > 0)

	async function apply() {
		setApplying(true)
		let applied = 0
		for (const diff of chosen) {
			const picked = choice[diff.id]!
			const done = await run(applyModelSync(browserApi, diff.id, { add: [...picked.add], remove: [...picked.remove] }))
			if (done) applied++
		}
		setApplying(false)
		if (applied > 0) toast.success(t('已同步 {count} 个渠道的模型', { count: applied }))
		if (applied === chosen.length) onOpenChange(false)
	}

	const differing = (diffs ?? []).filter((diff) => diff.error || diff.added.length > 0 || diff.removed.length > 0)

	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent className="sm:max-w-2xl">
				<DialogHeader>
					<DialogTitle>{t('同步上游模型')}</DialogTitle>
					<DialogDescription>{t('对比上游的模型列表与渠道的模型：勾选要添加或移除的模型后应用。已重定向的模型按其上游名称计算。')}</DialogDescription>
				</DialogHeader>
				{diffs === null && <p className="text-sm text-muted-foreground">{t('正在获取上游模型列表…')}</p>}
				{diffs !== null && differing.length === 0 && <p className="text-sm text-muted-foreground" data-testid="model-sync-none">{t('渠道的模型与上游一致')}</p>}
				<div className="flex max-h-[60vh] flex-col gap-4 overflow-y-auto">
					{differing.map((diff) => (
						<section key={diff.id} className="flex flex-col gap-2 rounded-md border p-3" data-testid="model-sync-channel">
							<h3 className="text-sm font-medium">{diff.name} <span className="text-muted-foreground">#{diff.id}</span></h3>
							{diff.error && <p className="text-sm text-destructive" data-testid="model-sync-error">{diff.error}</p>}
							<ModelChecklist
								label={t('上游新增')} variant="green" models={diff.added}
								ticked={choice[diff.id]?.add} onToggle={(model) => toggle(diff.id, 'add', model)}
							/>
							<ModelChecklist
								label={t('上游已移除')} variant="red" models={diff.removed}
								ticked={choice[diff.id]?.remove} onToggle={(model) => toggle(diff.id, 'remove', model)}
							/>
						</section>
					))}
				</div>
				<DialogFooter>
					<Button type="button" variant="outline" onClick={() => onOpenChange(false)}>{t('取消')}</Button>
					<Button type="button" disabled={applying || chosen.length === 0} onClick={apply}>{t('应用所选')}</Button>
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}

type ModelChecklistProps = {
	label: string
	variant: 'green' | 'red'
	models: string[]
	ticked: Set<string> | undefined
	onToggle: (model: string) => void
}

function ModelChecklist({ label, variant, models, ticked, onToggle }: ModelChecklistProps) {
	if (models.length === 0) return null
	return (
		<div className="flex flex-col gap-1">
			<Badge variant={variant} className="self-start">{label}</Badge>
			<div className="flex flex-wrap gap-x-4 gap-y-1">
				{models.map((model) => (
					<label key={model} className="flex items-center gap-2 text-sm">
						<Checkbox checked={ticked?.has(model) ?? false} onCheckedChange={() => onToggle(model)} aria-label={`${label} ${model}`} />
						<span className="font-mono">{model}</span>
					</label>
				))}
			</div>
		</div>
	)
}
