import { type FormEvent, useState } from 'react'
import type { ChannelTagRow } from '@shared/channel'
import { Button } from '@ui/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@ui/components/ui/dialog'
import { Input } from '@ui/components/ui/input'
import { Label } from '@ui/components/ui/label'
import { Textarea } from '@ui/components/ui/textarea'
import { toast } from '@ui/components/ui/toaster'
import { editTag, type TagEdit } from '@ui/features/channels/api'
import { isJsonObjectText } from '@ui/features/channels/editor/form'
import { parsePriority, parseWeight } from '@ui/features/channels/numbers'
import { useChannelAction } from '@ui/features/channels/use-channel-action'
import { useTranslation } from '@ui/i18n'
import { browserApi } from '@ui/lib/browser-api'

const tagEditMessages = {
	modelMappingInvalid: '模型映射必须是合法的 JSON 格式',
	noChanges: '没有变更',
} as const

type Fields = { newTag: string; models: string; groups: string; modelMapping: string; priority: string; weight: string }

/** The edit as the API takes it, or a zh message (with its values) saying what is wrong. */
function buildEdit(tag: string, fields: Fields): { edit: TagEdit } | { error: string; values?: Record<string, number> } {
	const edit: TagEdit = { tag }
	const newTag = fields.newTag.trim()
	if (newTag !== tag) edit.new_tag = newTag
	if (fields.models.trim()) edit.models = fields.models.trim()
	if (fields.groups.trim()) edit.groups = fields.groups.trim()
	if (fields.modelMapping.trim()) {
		if (!isJsonObjectText(fields.modelMapping)) return { error: tagEditMessages.modelMappingInvalid }
		edit.model_mapping = fields.modelMapping.trim()
	}
	if (fields.priority.trim()) {
		const priority = parsePriority(fields.priority)
		if (priority.error !== undefined) return { error: priority.error, values: priority.values }
		edit.priority = priority.value
	}
	if (fields.weight.trim()) {
		const weight = parseWeight(fields.weight, { floor: false })
		if (weight.error !== undefined) return { error: weight.error }
		edit.weight = weight.value
	}
	if (Object.keys(edit).length === 1) return { error: tagEditMessages.noChanges }
	return { edit }
}

type TagEditDialogProps = { row: ChannelTagRow; open: boolean; onOpenChange: (open: boolean) => void }

/** Every field overwrites all channels of the tag; an empty field is left unchanged, an empty tag name dissolves the tag. */
export function TagEditDialog({ row, open, onOpenChange }: TagEditDialogProps) {
	const { t } = useTranslation()
	const run = useChannelAction()
	const [saving, setSaving] = useState(false)

	async function handleSubmit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const form = new FormData(event.currentTarget)
		const field = (name: string) => String(form.get(name) ?? '')
		const built = buildEdit(row.tag, {
			newTag: field('new_tag'), models: field('models'), groups: field('groups'),
			modelMapping: field('model_mapping'), priority: field('priority'), weight: field('weight'),
		})
		if ('error' in built) {
			toast.error(t(built.error, built.values))
			return
		}
		setSaving(true)
		const saved = await run(editTag(browserApi, built.edit), (count) => t('已更新 {count} 个渠道', { count: Number(count) }))
		setSaving(false)
		if (saved) onOpenChange(false)
	}

	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent className="sm:max-w-lg">
				<DialogHeader>
					<DialogTitle>{t('编辑标签：{tag}', { tag: row.tag })}</DialogTitle>
					<DialogDescription>{t('所有修改会覆盖该标签下全部渠道的对应设置，留空的项保持不变。')}</DialogDescription>
				</DialogHeader>
				<form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate>
					<div className="flex flex-col gap-2">
						<Label htmlFor="tag-new-tag">{t('新标签名')}</Label>
						<Input id="tag-new-tag" name="new_tag" defaultValue={row.tag} />
						<p className="text-xs text-muted-foreground">{t('留空则解散标签')}</p>
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="tag-models">{t('模型')}</Label>
						<Textarea id="tag-models" name="models" placeholder={row.models} />
						<p className="text-xs text-muted-foreground">{t('多个模型用英文逗号分隔')}</p>
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="tag-groups">{t('分组')}</Label>
						<Input id="tag-groups" name="groups" placeholder={row.group} />
					</div>
					<div className="flex flex-col gap-2">
						<Label htmlFor="tag-model-mapping">{t('模型重定向')}</Label>
						<Textarea id="tag-model-mapping" name="model_mapping" placeholder={t('JSON 格式，例如 {example}', { example: '{"gpt-3.5-turbo": "gpt-3.5-turbo-0125"}' })} />
					</div>
					<div className="grid grid-cols-2 gap-4">
						<div className="flex flex-col gap-2">
							<Label htmlFor="tag-priority">{t('优先级')}</Label>
							<Input id="tag-priority" name="priority" inputMode="numeric" placeholder={row.priority === null ? '' : String(row.priority)} />
						</div>
						<div className="flex flex-col gap-2">
							<Label htmlFor="tag-weight">{t('权重')}</Label>
							<Input id="tag-weight" name="weight" inputMode="numeric" placeholder={row.weight === null ? '' : String(row.weight)} />
						</div>
					</div>
					<DialogFooter>
						<Button type="button" variant="outline" onClick={() => onOpenChange(false)}>{t('取消')}</Button>
						<Button type="submit" disabled={saving}>{t('保存')}</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
