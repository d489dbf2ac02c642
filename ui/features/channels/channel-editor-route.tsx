import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { ChannelEditor, channelListPath } from '@ui/features/channels/editor/channel-editor'
import { type EditorData, loadEditorData } from '@ui/features/channels/editor/load'
import { useTranslation } from '@ui/i18n'
import { apiContext } from '@ui/lib/api'
import { requireRole } from '@ui/lib/session'

/** `/channel/add` and `/channel/edit/:id`: admins only, checked before anything is read. */
export async function loader({ context, params }: LoaderFunctionArgs): Promise<EditorData> {
	const api = context.get(apiContext)
	await requireRole(api)
	return loadEditorData(api, params.id)
}

export function Component() {
	const { t } = useTranslation()
	const { channel, missing, groups, configuredModels, channelTypes, modelsByType } = useLoaderData() as EditorData
	if (missing !== undefined) {
		return (
			<div role="alert" className="flex flex-col items-center gap-4 py-24 text-center">
				<h1 className="text-lg font-semibold">{t(missing)}</h1>
				<Button asChild variant="outline">
					<Link to={channelListPath}>{t('返回渠道列表')}</Link>
				</Button>
			</div>
		)
	}
	// Keyed by channel: going from one edit page to another (or to add) starts a fresh form.
	return (
		<ChannelEditor
			key={channel?.id ?? 'new'}
			channel={channel}
			groups={groups}
			configuredModels={configuredModels}
			channelTypes={channelTypes}
			loadedModelsByType={modelsByType}
		/>
	)
}
