import { render } from 'preact'
import { App } from './app'
import './shared/console.css'
import './shared/panels.css'
import './shared/theme.css'

render(<App />, document.getElementById('console')!)
