import { LanguagesIcon, MoonIcon, SunIcon } from 'lucide-react'
import { useRevalidator } from 'react-router'
import { Button } from '@ui/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@ui/components/ui/dropdown-menu'
import { type Language, useTranslation } from '@ui/i18n'
import { useTheme } from '@ui/lib/theme'

/** The theme and language switches of the header, and of the sign-in pages, which have no header. */
export function PreferenceSwitches() {
	const { t, language, setLanguage } = useTranslation()
	const { theme, setTheme } = useTheme()
	const revalidator = useRevalidator()
	/**
	 * The page's data holds texts the server worded in the old language (log lines, channel status
	 * reasons): it is loaded again, in the new one (the calls say the page's language, set first).
	 */
	function chooseLanguage(next: Language) {
		if (next === language) return
		setLanguage(next)
		void revalidator.revalidate()
	}
	return (
		<>
			<Button variant="ghost" size="icon" aria-label={t('切换主题')} onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
				{theme === 'dark' ? <SunIcon /> : <MoonIcon />}
			</Button>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					<Button variant="ghost" size="icon" aria-label={t('切换语言')}>
						<LanguagesIcon />
					</Button>
				</DropdownMenuTrigger>
				<DropdownMenuContent align="end">
					<DropdownMenuItem onSelect={() => chooseLanguage('zh')} aria-checked={language === 'zh'}>中文</DropdownMenuItem>
					<DropdownMenuItem onSelect={() => chooseLanguage('en')} aria-checked={language === 'en'}>English</DropdownMenuItem>
				</DropdownMenuContent>
			</DropdownMenu>
		</>
	)
}
