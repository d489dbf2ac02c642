import { TOKEN_STATUS } from '@shared/token-constants'
import { Badge } from '@ui/components/ui/badge'
import { Tooltip } from '@ui/components/ui/tooltip'
import { useTranslation } from '@ui/i18n'
import type { TokenView } from '@ui/features/tokens/api'
import { tokenStatusTags, unknownStatusTag } from '@ui/features/tokens/token-display'

/** The state tag; an enabled token limited to some models carries a second tag listing them. */
export function TokenStatusBadge({ token }: { token: TokenView }) {
	const { t } = useTranslation()
	const tag = tokenStatusTags[token.status] ?? unknownStatusTag
	const limited = token.status === TOKEN_STATUS.enabled && token.model_limits_enabled
	return (
		<div className="flex flex-wrap items-center gap-1">
			<Badge variant={tag.variant} data-status={token.status}>{t(tag.label)}</Badge>
			{limited && (
				<Tooltip content={token.model_limits ? token.model_limits.split(',').join(', ') : t('未选择模型')}>
					<Badge variant="purple" tabIndex={0}>{t('限制模型')}</Badge>
				</Tooltip>
			)}
		</div>
	)
}
