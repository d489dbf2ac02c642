export { HomePage as Component } from '@ui/features/home'
