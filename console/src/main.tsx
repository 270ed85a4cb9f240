import { render } from 'preact'
import { App } from './app'
import './shared/console.css'
import './shared/panels.css'

render(<App />, document.getElementById('console')!)
