import { FieldGrid, OptionInput, OptionTextarea, SectionCard } from '@ui/features/settings/option-fields'
import { useOptionForm } from '@ui/features/settings/options-form'

const KEYS = ['SystemName', 'Logo', 'HomePageContent', 'About', 'Footer'] as const

/** Branding and the pages admins write (rendered through the sanitiser: docs/operations/security.md#requests-ferry-receives). */
export function BrandingSection() {
	const form = useOptionForm(KEYS)
	return (
		<SectionCard id="branding" title="个性化设置" form={form} saveText="保存个性化设置">
			<FieldGrid columns={2}>
				<OptionInput form={form} name="SystemName" label="系统名称" placeholder="留空则使用默认名称" />
				<OptionInput form={form} name="Logo" label="Logo 图片地址" placeholder="留空则使用 /logo.png" />
			</FieldGrid>
			<OptionTextarea form={form} name="HomePageContent" label="首页内容" hint="支持 Markdown 和 HTML；填写一个链接则以内嵌页面显示" rows={6} />
			<OptionTextarea form={form} name="About" label="关于" hint="支持 Markdown 和 HTML；填写一个链接则以内嵌页面显示" rows={6} />
			<OptionTextarea form={form} name="Footer" label="页脚" hint="支持 HTML；留空则使用默认页脚" rows={3} />
		</SectionCard>
	)
}
